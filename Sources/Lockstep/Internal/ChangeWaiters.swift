
/// Consumers of ``StoreSelection`` waiting for the store's next change, woken by an
/// observation's `onChange`, by cancellation, or by the store's release.
///
/// A `Sendable` reference with its own lock, so the store's nonisolated `deinit` can reach it.
package final class ChangeWaiters: Sendable {
    /// The consumers; a waiter waits for nothing but its own ``wake(_:)``.
    private let state = Lock(WaiterQueue<Void, Void>())

    package init() {}

    /// Reserves an identifier for a wait about to start. A ``wake(_:)`` that comes before the
    /// wait starts is remembered, so the wait then returns at once.
    func reserveID() -> UInt64 {
        state.withLock { $0.makeID() }
    }

    /// Gives up a reserved identifier without waiting on it.
    func discard(_ id: UInt64) {
        state.withLock { $0.discard(id) }
    }

    /// Suspends until ``wake(_:)`` is called with `id` (before or after this call), the task
    /// is cancelled, or the waiters are closed. Returns `false` when closed or cancelled.
    func wait(_ id: UInt64) async -> Bool {
        await wait(id, activity: nil, detectsStall: false) == .changed
    }

    /// Waits as ``wait(_:)`` does. Under a test's work monitor, a tracked consumer counts as
    /// parked meanwhile (`activity` says on what) when `activity` is given, and with
    /// `detectsStall` the wait ends with ``ChangeWait/stalled`` once no tracked work is running
    /// (nothing the test does not do itself can change the store any more).
    func wait(_ id: UInt64, activity: String?, detectsStall: Bool) async -> ChangeWait {
        let outcome = await awaitWaiter(
            on: state, \.self, id: id, for: (), activity: activity, detectsStall: detectsStall,
            immediate: { _ in nil })
        switch outcome {
        case .satisfied:
            return Task.isCancelled || state.withLock(\.isClosed) ? .ended : .changed
        case .stalled:
            return .stalled
        case .cancelled, .closed:
            return .ended
        }
    }

    /// Wakes the wait with identifier `id`, or makes it return at once if it has not started.
    func wake(_ id: UInt64) {
        state.withLock { $0.resolve(id, with: ()) }?.perform()
    }

    /// Wakes every wait and makes later waits return at once.
    package func close() {
        for waiter in state.withLock({ $0.close() }) {
            waiter.perform()
        }
    }
}

/// How a wait on ``ChangeWaiters`` ended.
enum ChangeWait: Equatable {
    /// The store changed.
    case changed
    /// The waiters were closed (the store is gone) or the task was cancelled.
    case ended
    /// Under a test's work monitor, no tracked work can change the store any more.
    case stalled
}
