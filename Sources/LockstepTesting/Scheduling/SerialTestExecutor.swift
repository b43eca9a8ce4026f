import Dispatch
import Foundation
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

    /// The jobs enqueued and not run yet, and the priorities that pick the next one; `nil` for
    /// the first-in, first-out executor, which keeps no jobs of its own.
    private let order: Lock<PriorityOrder>?

    private init(order: PriorityOrder?) {
        self.order = order.map { Lock($0) }
    }

    /// An executor that runs, each time the main queue comes to it, the ready job of the task
    /// with the highest priority, the priorities drawn from `seed`: the executor of one run of
    /// `exploreSchedules`.
    convenience init(seed: UInt64) {
        self.init(order: PriorityOrder(seed: seed))
        DispatchQueue.main.setSpecific(key: Self.mainQueueKey, value: true)
    }

    /// Marks the main queue, so that an explored run can tell a job made ready there from one
    /// made ready elsewhere (on Linux the main queue is drained by a worker thread, so the thread
    /// cannot tell).
    private static let mainQueueKey = DispatchSpecificKey<Bool>()

    /// How many jobs were made ready off the main queue during an explored run: each becomes
    /// ready at a moment no seed controls, so the run's seed may not replay it exactly.
    private let offMainJobs = Lock(0)

    /// The end-of-test checks of the test stores made in an explored run, run when the run ends
    /// for the stores still alive then.
    private let endChecks = Lock<[@Sendable () -> Void]>([])

    /// Adds the end-of-test check of a test store made in this explored run.
    func checkAtEnd(_ check: @escaping @Sendable () -> Void) {
        endChecks.withLock { $0.append(check) }
    }

    /// Runs the end-of-test checks of the stores of this run that are still alive (a store
    /// released already has checked itself).
    func runEndChecks() {
        for check in endChecks.withLock({ checks in
            defer { checks = [] }
            return checks
        }) {
            check()
        }
    }

    /// The jobs of an explored run made ready off the main queue so far.
    var jobsMadeReadyOffMain: Int {
        offMainJobs.withLock { $0 }
    }

    /// How many jobs of tasks the executor of an explored run has run, and how many tasks they
    /// belonged to: the shape of the run, along which the explorer draws the next run's change
    /// points.
    var runShape: (steps: Int, tasks: Int) {
        order?.withLock { ($0.steps, $0.ordinals.count) } ?? (0, 0)
    }

    /// Runs `job` on the main queue: after every job enqueued before it, or, for the executor
    /// of an explored run, at a turn where its task has the highest priority among the ready
    /// jobs.
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
        if DispatchQueue.getSpecific(key: Self.mainQueueKey) == nil {
            offMainJobs.withLock { $0 += 1 }
        }
        // Each job takes a turn of the main queue, as on the first-in, first-out executor, so the
        // main actor's jobs interleave with these as they do there. The turn runs the ready job
        // whose task has the highest priority, or waits a turn while a task of higher priority
        // that had a job lately is away (on the main actor, on an actor). All draws and
        // decisions are made on the main queue, so the same seed decides the same way.
        takeTurn(adding: job, waited: 0, order: order)
    }

    /// Schedules a turn of the main queue: it adds `job` to the ready jobs, then runs the one
    /// the order picks, or, when the order waits for a task of higher priority, takes another
    /// turn at the back of the main queue. The turn holds the executor, so the executor lives
    /// as long as it has jobs to run.
    private func takeTurn(adding job: UnownedJob?, waited: Int, order: Lock<PriorityOrder>) {
        DispatchQueue.main.async {
            switch order.withLock({ $0.turn(adding: job, waited: waited) }) {
            case .run(let next):
                next.runSynchronously(on: self.asUnownedTaskExecutor())
                self.activity.jobFinished()
            case .wait:
                self.takeTurn(adding: nil, waited: waited + 1, order: order)
            }
        }
    }
}

/// The order of an explored run: probabilistic concurrency testing (PCT, Burckhardt, Kothari,
/// Musuvathi and Nagarakatte, ASPLOS 2010), as Shuttle and Coyote schedule.
///
/// Each task of the test's work gets a random priority when its first job arrives, and the ready
/// job of the task with the highest priority runs; the others wait. At up to two change points,
/// steps drawn at random along the run, the task that runs drops below every other. A race
/// whose steps are any number of awaits apart is found when the change point falls between them
/// and the tasks' priorities are in the right order, so the chance of finding it does not fall
/// with the distance, as it does for a random walk that holds single jobs back.
///
/// Jobs that belong to no task (a default actor's turn at running the tasks queued on it) run
/// as soon as their turn comes: the actor runs whichever task holds it, and the priorities
/// order the tasks.
struct PriorityOrder: Sendable {
    /// A job whose turn has come, and the task it belongs to (`nil` for none).
    struct Ready: Sendable {
        let job: UnownedJob
        let task: UInt?
    }

    /// What a turn does.
    enum Decision {
        case run(UnownedJob)
        case wait
    }

    /// The jobs whose turn has come and that no turn has run yet.
    var ready: [Ready] = []
    var generator: SplitMix64
    /// Each task's priority: higher runs first. Drawn priorities are at least `1 << 32`; a task
    /// lowered at a change point takes a number below every drawn one.
    var priorities: [UInt: UInt64] = [:]
    /// The turn at which each task last had a job ready: a task with none for more than
    /// ``patience`` turns is taken as finished or blocked, and no longer waited for.
    var lastSeen: [UInt: Int] = [:]
    /// The lowest priority a task draws; a task lowered at a change point takes one below it.
    static let lowestDrawn: UInt64 = 1 << 32

    /// Turns taken so far.
    var turns = 0
    /// Jobs of tasks run so far: the steps the change points count.
    var steps = 0
    /// Each task's number, in the order the tasks first had a job (1 for the first).
    var ordinals: [UInt: Int] = [:]
    /// How many jobs of each task have run.
    var taskSteps: [UInt: Int] = [:]
    /// Where the task that runs drops to the lowest priority, in the order they are drawn.
    var changePoints: [ChangePoint]
    /// How many change points have fired: the next lowered task goes below the previous one.
    var fired = 0

    /// Where a change point falls.
    enum ChangePoint: Equatable, Sendable {
        /// At the `n`th step of the run.
        case step(Int)
        /// At the `step`th job of the `task`th task to appear: the change points of a race
        /// between the first tasks of an action, whatever the length of the rest of the run.
        case taskStep(task: Int, step: Int)
    }

    /// How many turns a task of higher priority that is away (on the main actor, on an actor)
    /// counts as coming back, for a task lowered at a change point: one that has had no job
    /// ready for longer has finished, or waits for something that only lower tasks can give it.
    static let patience = 64

    /// The most turns one job waits for tasks of higher priority, however often they come back:
    /// a bound, so that a task that never stops (a loop that dispatches for good) cannot keep
    /// the others from running.
    static let longestWait = 4_096

    /// The run length, in steps, and the number of tasks, assumed when a seed carries none (see
    /// ``seed(_:length:tasks:)``).
    static let defaultLength = 64
    static let defaultTasks = 8

    /// The order of the run of `seed`: its low 48 bits seed the generator; its top 16 bits, when
    /// not zero, carry the length of the run in steps (10 bits) and its number of tasks (6 bits),
    /// along which the change points are drawn.
    init(seed: UInt64) {
        var generator = SplitMix64(seed: seed & 0x0000_FFFF_FFFF_FFFF)
        let carried = seed >> 48
        let length = carried == 0 ? Self.defaultLength : max(1, Int(carried >> 6))
        let tasks = carried == 0 ? Self.defaultTasks : max(1, Int(carried & 0x3F))
        /// A number from 1 to `bound` on a logarithmic scale: the small ones are as likely as the
        /// large ones put together.
        func logarithmic(_ bound: Int) -> Int {
            let fraction = Double(generator.next() >> 11) / Double(1 << 53)
            return min(bound, max(1, Int(pow(Double(bound) + 1, fraction))))
        }
        // Zero, one or two change points: bugs of depth one (an order of two tasks), two and three.
        let depth = Int(generator.next() % 3)
        var points: [ChangePoint] = []
        for _ in 0..<depth {
            if generator.next() % 2 == 0 {
                points.append(.step(Int(generator.next() % UInt64(length)) + 1))
            } else {
                let task = logarithmic(tasks)
                points.append(.taskStep(task: task, step: logarithmic(3)))
            }
        }
        changePoints = points
        self.generator = generator
    }

    /// The seed of a run whose change points are drawn along `length` steps and `tasks` tasks:
    /// `random`'s low 48 bits, with the length (at most 1,023) and the tasks (at most 63) in the
    /// top 16.
    static func seed(_ random: UInt64, length: Int, tasks: Int) -> UInt64 {
        let carried = UInt64(min(max(length, 1), 0x3FF)) << 6 | UInt64(min(max(tasks, 1), 0x3F))
        return (random & 0x0000_FFFF_FFFF_FFFF) | (carried << 48)
    }

    /// A turn: adds `job`, if any, to the ready jobs, and decides what runs. `waited` is how many
    /// turns this turn has waited already.
    mutating func turn(adding job: UnownedJob?, waited: Int) -> Decision {
        turns += 1
        if let job {
            let task = Self.task(of: job)
            if let task {
                if priorities[task] == nil {
                    priorities[task] = generator.next() | Self.lowestDrawn
                    ordinals[task] = ordinals.count + 1
                }
                lastSeen[task] = turns
            }
            ready.append(Ready(job: job, task: task))
        }
        if let actorJob = ready.firstIndex(where: { $0.task == nil }) {
            return .run(ready.remove(at: actorJob).job)
        }
        // The ready job of the task with the highest priority; a ticket always finds one, as
        // each turn adds one job before it runs one.
        var best = 0
        for index in ready.indices.dropFirst() where priority(of: ready[index]) > priority(of: ready[best]) {
            best = index
        }
        let bestPriority = priority(of: ready[best])
        // A task lowered at a change point waits while any task above it still comes back:
        // the change point lets the others run past it, however many awaits they take. Other
        // tasks run the best ready job without waiting, as a task away may be waiting for them.
        if bestPriority < Self.lowestDrawn, waited < Self.longestWait, isAway(above: bestPriority) {
            return .wait
        }
        steps += 1
        if let task = ready[best].task {
            taskSteps[task, default: 0] += 1
            let point = changePoints.firstIndex { point in
                switch point {
                case .step(let step): step == steps
                case .taskStep(let ordinal, let step): ordinal == ordinals[task] && step == taskSteps[task]
                }
            }
            if let point {
                changePoints.remove(at: point)
                fired += 1
                priorities[task] = UInt64(3 - min(fired, 2))
            }
        }
        return .run(ready.remove(at: best).job)
    }

    func priority(of ready: Ready) -> UInt64 {
        ready.task.flatMap { priorities[$0] } ?? .max
    }

    /// Whether a task of priority above `priority` had a job lately but has none ready now: it
    /// is on the main actor or an actor, and comes back.
    func isAway(above priority: UInt64) -> Bool {
        for (task, taskPriority) in priorities where taskPriority > priority {
            guard let seen = lastSeen[task], turns - seen <= Self.patience else { continue }
            if !ready.contains(where: { $0.task == task }) { return true }
        }
        return false
    }

    /// The task `job` resumes, by its id, or `nil` for a job that resumes no task: a default
    /// actor's turn. The runtime names a task job's id in its description, "UnownedJob(id: 3)",
    /// and "id: nil" for the others. Ids are never reused in a process, where a task's address
    /// is, once the task is gone, so a new task never takes a finished one's priority.
    /// `PriorityOrderTests` fails if the description changes shape.
    static func task(of job: UnownedJob) -> UInt? {
        let description = job.description
        guard let open = description.lastIndex(of: " "), description.hasSuffix(")") else { return nil }
        return UInt(description[description.index(after: open)..<description.index(before: description.endIndex)])
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
