
/// Consumers of ``StoreSelection`` waiting for the store's next change, woken by an
/// observation's `onChange`, by cancellation, or by the store's release.
///
/// A `Sendable` reference with its own lock, so the store's nonisolated `deinit` can reach it.
package final class ChangeWaiters: Sendable {
    private struct State {
        var nextID: UInt64 = 0
        /// Reserved waits that have not started waiting yet, and whether a change already came.
        var reserved: [UInt64: Bool] = [:]
        var waiters: [UInt64: Waiter] = [:]
        var isClosed = false
    }

    /// A waiting consumer, resumed with whether its wait stalled.
    private typealias Waiter = TrackedContinuation<Bool, Never>

    private let state = Lock(State())

    package init() {}

    /// Reserves an identifier for a wait about to start. A ``wake(_:)`` that comes before the
    /// wait starts is remembered, so the wait then returns at once.
    func reserveID() -> UInt64 {
        state.withLock { state in
            defer { state.nextID &+= 1 }
            state.reserved[state.nextID] = false
            return state.nextID
        }
    }

    /// Gives up a reserved identifier without waiting on it.
    func discard(_ id: UInt64) {
        _ = state.withLock { $0.reserved.removeValue(forKey: id) }
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
        let monitor = detectsStall ? WorkMonitor.scope : nil
        let trackedTask = activity == nil ? nil : TrackedTask.current
        let watch = QuiescenceWatch()
        let stalled = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let resumeNow = state.withLock { state in
                    let wokenEarly = state.reserved.removeValue(forKey: id) ?? false
                    if wokenEarly || state.isClosed || Task.isCancelled { return true }
                    state.waiters[id] = Waiter(continuation, trackedTask: trackedTask)
                    if let activity { trackedTask?.prepareToPark(activity) }
                    return false
                }
                if resumeNow {
                    continuation.resume(returning: false)
                    return
                }
                trackedTask?.commitPark()
                watch.token = monitor?.whenQuiescent { [self] in
                    state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(with: .success(true))
                }
            }
        } onCancel: {
            wake(id)
        }
        if let token = watch.token {
            monitor?.forgetQuiescenceAction(token)
        }
        if stalled { return .stalled }
        return !Task.isCancelled && !state.withLock { $0.isClosed } ? .changed : .ended
    }

    /// Wakes the wait with identifier `id`, or makes it return at once if it has not started.
    func wake(_ id: UInt64) {
        let waiter = state.withLock { state in
            if state.reserved[id] != nil {
                state.reserved[id] = true
            }
            return state.waiters.removeValue(forKey: id)
        }
        waiter?.resume(with: .success(false))
    }

    /// Wakes every wait and makes later waits return at once.
    package func close() {
        let waiters = state.withLock { state in
            state.isClosed = true
            state.reserved.removeAll()
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters {
            waiter.resume(with: .success(false))
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
