import Dispatch
import Lockstep

/// The executor a test's work runs on: one job at a time, on the main queue, where the main
/// actor's jobs run too; in the order the jobs were enqueued, or, in a run of
/// ``exploreSchedules(count:seed:isolation:fileID:filePath:line:column:_:)``, in an order a
/// seeded generator picks.
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
/// await withTaskExecutorPreference(SerialTestExecutor.current) {
///     await model.refresh()   // its child tasks and default actors run one job at a time
/// }
/// ```
///
/// What it cannot order: an unstructured `Task { }` started inside the work (it does not
/// inherit the preference; start it with `Task(executorPreference: SerialTestExecutor.current)`,
/// or use a task group), actors with a custom executor, and callbacks from Dispatch queues,
/// threads or I/O, which resume the work from outside the queue.
public final class SerialTestExecutor: TaskExecutor {
    /// The executor every test store uses outside a run of `exploreSchedules`. It has no state
    /// of its own: each job goes to the main queue, which is serial and first in, first out.
    public static let shared = SerialTestExecutor(order: nil)

    /// The executor of the current test: the one of the current run inside
    /// ``exploreSchedules(count:seed:isolation:fileID:filePath:line:column:_:)``, which picks
    /// among the ready jobs with the run's seed, and ``shared`` anywhere else.
    ///
    /// Test stores and ``TrackedWork`` take it when they are made. Work a test starts by hand
    /// follows the explored schedule when it prefers this one:
    ///
    /// ```swift
    /// await withTaskExecutorPreference(SerialTestExecutor.current) {
    ///     await model.refresh()
    /// }
    /// ```
    public static var current: SerialTestExecutor {
        exploring ?? (WorkTracking.current as? WorkMonitor)?.executor ?? shared
    }

    /// A first-in, first-out executor of its own, for the work scope of one test: it orders jobs
    /// as ``shared`` does (each goes to the main queue), and counts them for that test alone.
    static func forWorkScope() -> SerialTestExecutor {
        SerialTestExecutor(order: nil)
    }

    /// The jobs enqueued on this executor and not run yet, and the jobs it has run.
    let activity = ExecutorActivity()

    /// The executor of the current run of `exploreSchedules`, if any.
    @TaskLocal static var exploring: SerialTestExecutor?

    /// The jobs enqueued and not run yet, and the generator that picks the next one; `nil` for
    /// the first-in, first-out executor, which keeps no jobs of its own.
    private let order: Lock<SeededOrder>?

    private init(order: SeededOrder?) {
        self.order = order.map { Lock($0) }
    }

    /// An executor that runs, each time the main queue comes to it, the ready job a generator
    /// seeded with `seed` picks: the executor of one run of `exploreSchedules`.
    convenience init(seed: UInt64) {
        self.init(order: SeededOrder(seed: seed))
    }

    /// Runs `job` on the main queue: after every job enqueued before it, or, for the executor
    /// of an explored run, when the generator picks it among the jobs ready at that turn.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        // Counted until it has run, so that a test's work monitor knows when nothing is left to run.
        activity.jobEnqueued()
        guard let order else {
            let executor = asUnownedTaskExecutor()
            DispatchQueue.main.async {
                job.runSynchronously(on: executor)
                self.activity.jobFinished()
            }
            return
        }
        // Each job takes turns of the main queue, as on the first-in, first-out executor, so
        // the main actor's jobs interleave with these as they do there; but the generator may
        // hold it back for a few turns, letting the main queue run what was enqueued on it
        // meanwhile, and picks which ready job a turn runs. The draws are made where the jobs
        // are enqueued and where the turns run: on the main queue for all of the test's work
        // that the toolkit orders, so the same seed draws the same way.
        let delay = order.withLock { $0.drawDelay() }
        takeTurn(with: job, order: order, delay: delay)
    }

    /// Schedules a turn of the main queue for `job`: after `delay` more turns, the job is ready,
    /// and the turn runs the ready job the generator picks. The turn holds the executor, so the
    /// executor lives as long as it has jobs to run.
    private func takeTurn(with job: UnownedJob, order: Lock<SeededOrder>, delay: Int) {
        DispatchQueue.main.async {
            guard delay == 0 else {
                self.takeTurn(with: job, order: order, delay: delay - 1)
                return
            }
            let next = order.withLock { $0.takeNext(adding: job) }
            next.runSynchronously(on: self.asUnownedTaskExecutor())
            self.activity.jobFinished()
        }
    }
}

/// The jobs of an explored run that are ready, and the seeded generator that picks among them.
struct SeededOrder: Sendable {
    /// The jobs whose turn has come and that no turn has run yet.
    var ready: [UnownedJob] = []
    var generator: SplitMix64

    /// The most turns of the main queue a job is held back.
    static let maxDelay: UInt64 = 12

    init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
    }

    /// How many turns of the main queue a job just enqueued waits before it is ready: none
    /// half the time, otherwise one to ``maxDelay``.
    mutating func drawDelay() -> Int {
        let draw = generator.next() % (Self.maxDelay * 2)
        return draw < Self.maxDelay ? 0 : Int(draw - Self.maxDelay) + 1
    }

    /// Adds `job`, whose turn has come, to the ready jobs, and removes and returns the one the
    /// generator picks among them. Each turn adds one job and takes one, so a turn always
    /// finds one.
    mutating func takeNext(adding job: UnownedJob) -> UnownedJob {
        ready.append(job)
        guard ready.count > 1 else { return ready.removeLast() }
        let index = Int(generator.next() % UInt64(ready.count))
        return ready.remove(at: index)
    }
}

/// SplitMix64, a small generator whose sequence depends only on its seed, on every platform and
/// Swift version: the same seed picks the same jobs.
struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
