import Lockstep

/// Wakes the selections of a mock store when its state or an override changes, or when it is
/// released.
///
/// Each change bumps a version: a selection reads its value and the version together, then
/// waits for a version after it, so no change between the read and the wait is missed.
final class ChangeNotifier: Sendable {
    private struct State {
        var version: UInt64 = 0
        /// Waiters for a version after theirs.
        var waiters = WaiterQueue<UInt64, Void>()
    }

    private let state = Lock(State())

    /// The number of changes so far.
    var version: UInt64 {
        state.withLock { $0.version }
    }

    /// Records a change and wakes every waiter.
    func notify() {
        state.withLockResuming { state in
            state.version &+= 1
            let version = state.version
            return state.waiters.satisfy { $0 != version ? () : nil }
        }
    }

    /// Wakes every waiter, and makes later waits return at once.
    func close() {
        state.withLockResuming { $0.waiters.close() }
    }

    /// Waits for a change after `version`. Returns `false` when closed or cancelled instead.
    func wait(after version: UInt64) async -> Bool {
        let outcome = await awaitWaiter(
            on: state, \.waiters, for: version,
            activity: "waiting for a change of a MockStore's state",
            detectsStall: false
        ) { state in
            state.version != version ? () : nil
        }
        guard case .satisfied = outcome else { return false }
        return !Task.isCancelled
    }
}
