import Dispatch

/// The executor a test's work runs on: one job at a time, in the order the jobs were enqueued, on
/// the main queue, where the main actor's jobs run too.
///
/// A ``TestStore`` runs everything its store starts with a preference for this executor (the
/// tasks of `send`, the middlewares and their child tasks, effects, work under a cancellation
/// id, and the default actors all of these call), and so does ``TrackedWork/start(_:operation:)``.
/// With one queue for the work and the store's main actor, the order in which racing
/// middlewares reach their actors, and so the order of the actions they dispatch, is the same on
/// every run. Each test keeps its own tasks: nothing is hooked globally, and tests still run in
/// parallel with each other.
///
/// Work a test starts by hand runs here too when it prefers the executor:
///
/// ```swift
/// await withTaskExecutorPreference(SerialTestExecutor.shared) {
///     await model.refresh()   // its child tasks and default actors run one job at a time
/// }
/// ```
///
/// What it cannot order: an unstructured `Task { }` started inside the work (it does not
/// inherit the preference; start it with `Task(executorPreference: SerialTestExecutor.shared)`,
/// or use a task group), actors with a custom executor, and callbacks from Dispatch queues,
/// threads or I/O, which resume the work from outside the queue.
public final class SerialTestExecutor: TaskExecutor {
    /// The executor every test store uses. It has no state of its own: each job goes to the main
    /// queue, which is serial and first in, first out.
    public static let shared = SerialTestExecutor()

    private init() {}

    /// Runs `job` after every job enqueued before it, on the main queue.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        ExecutorActivity.shared.jobEnqueued()
        DispatchQueue.main.async {
            job.runSynchronously(on: executor)
            ExecutorActivity.shared.jobFinished()
        }
    }
}
