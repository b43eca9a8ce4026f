import Dispatch
@testable import Lockstep

/// A task executor that holds every job enqueued on it until the test calls ``release()``, then
/// runs them, and every later one, on a global queue: a gate for a task the code under test
/// starts, such as the task that runs the side effects of `ActorStore.send` when the store's
/// owned tasks prefer this executor.
final class HeldExecutor: TaskExecutor {
    private struct State {
        var held: [UnownedJob] = []
        var isReleased = false
    }

    private let state = Lock(State())

    /// The jobs held now.
    var heldCount: Int {
        state.withLock { $0.held.count }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let runsNow = state.withLock { state in
            if state.isReleased { return true }
            state.held.append(job)
            return false
        }
        if runsNow {
            run(job)
        }
    }

    /// Runs the held jobs, in the order they were enqueued, and every job enqueued from now on.
    func release() {
        let jobs = state.withLock { state in
            state.isReleased = true
            defer { state.held.removeAll() }
            return state.held
        }
        for job in jobs {
            run(job)
        }
    }

    private func run(_ job: UnownedJob) {
        let executor = asUnownedTaskExecutor()
        DispatchQueue.global().async {
            job.runSynchronously(on: executor)
        }
    }
}

/// Holds back the drain of an `ActorStore`'s main-actor observers until the test calls
/// ``release()``, as a main actor busy with other work would, without blocking any thread: pass
/// ``start`` as the store's `startingMainActorDrain`.
final class HeldMainActorDrain: Sendable {
    private struct State {
        var held: [@MainActor @Sendable () -> Void] = []
        var isReleased = false
    }

    private let state = Lock(State())

    /// Starts `drain` in a task of the main actor, once released.
    var start: @Sendable (_ drain: @escaping @MainActor @Sendable () -> Void) -> Void {
        { drain in
            let runsNow = self.state.withLock { state in
                if state.isReleased { return true }
                state.held.append(drain)
                return false
            }
            if runsNow {
                Task { @MainActor in drain() }
            }
        }
    }

    /// Starts the held drains, and every later one at once.
    func release() {
        let drains = state.withLock { state in
            state.isReleased = true
            defer { state.held.removeAll() }
            return state.held
        }
        for drain in drains {
            Task { @MainActor in drain() }
        }
    }
}
