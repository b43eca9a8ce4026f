import Dispatch
import Lockstep

/// The jobs of one test executor (``SerialTestExecutor``): how many are enqueued and not yet
/// run, how many have run, and who to tell when none is left.
///
/// A test's tracked work all prefers a test executor, so "no job enqueued, and none ran for a
/// while" means every task of that work is suspended. A ``WorkMonitor`` uses it to decide
/// quiescence from what the executor sees, not from what each task said it was doing: a child
/// task that never touched a test double (an `async let`, a task-group child) still has jobs on
/// the executor while it runs, so a parked sibling cannot hide it.
///
/// Each test has an executor of its own (its work scope's), so another test's jobs never delay
/// its decisions, however busy that test keeps the main queue.
final class ExecutorActivity: Sendable {
    private struct State {
        var enqueued = 0
        var completed: UInt64 = 0
        var nextListener: UInt64 = 0
        var idleListeners: [UInt64: @Sendable () -> Void] = [:]
    }

    private let state = Lock(State())

    init() {}

    /// The jobs enqueued and not finished, and the number of jobs that have finished.
    var snapshot: (enqueued: Int, completed: UInt64) {
        state.withLock { ($0.enqueued, $0.completed) }
    }

    /// A job was enqueued on a test executor.
    func jobEnqueued() {
        state.withLock { $0.enqueued += 1 }
    }

    /// A job of a test executor has run. When it was the last one enqueued, the idle listeners
    /// are told, outside the lock.
    func jobFinished() {
        let listeners = state.withLock { state -> [@Sendable () -> Void] in
            state.enqueued -= 1
            state.completed &+= 1
            guard state.enqueued == 0, !state.idleListeners.isEmpty else { return [] }
            return Array(state.idleListeners.values)
        }
        for listener in listeners {
            listener()
        }
    }

    /// Calls `listener` each time the last enqueued job has run, until ``removeIdleListener(_:)``.
    func addIdleListener(_ listener: @escaping @Sendable () -> Void) -> UInt64 {
        state.withLock { state in
            defer { state.nextListener &+= 1 }
            state.idleListeners[state.nextListener] = listener
            return state.nextListener
        }
    }

    func removeIdleListener(_ token: UInt64) {
        _ = state.withLock { $0.idleListeners.removeValue(forKey: token) }
    }
}
