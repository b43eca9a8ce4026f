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

/// Keeps the main thread, and so the main actor, busy from ``hold()`` until ``release()``: how
/// a test makes the main actor fall behind the work of another actor, without a sleep.
final class MainThreadHold: Sendable {
    private let released = DispatchSemaphore(value: 0)
    private let isHeld = Signal()

    /// Blocks the main thread until ``release()``.
    @MainActor
    func hold() {
        isHeld.signal()
        released.wait()
    }

    /// Returns once the main thread is held.
    func held() async {
        await isHeld.wait()
    }

    func release() {
        released.signal()
    }
}
