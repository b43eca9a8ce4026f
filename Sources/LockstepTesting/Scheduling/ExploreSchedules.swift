import IssueReporting
import Lockstep

/// Runs `body` under `count` different schedules of the test's work, and stops at the first run
/// that fails, reporting the seed that replays it.
///
/// In each run, the ``TestStore``s and the ``TrackedWork`` that `body` makes run their work on
/// an executor of their own that orders the test's tasks by priority (PCT, probabilistic
/// concurrency testing, as Shuttle and Coyote schedule): each task draws a random priority, the
/// ready job of the highest runs first, and at up to two change points drawn for the run the task
/// that runs drops below every other and waits while they run past it. Middlewares that race
/// through actors then reach them in another order in each run, as they may in the app, whether
/// the racing steps are adjacent or many awaits apart, and a test that passes only in the order
/// the default executor happens to give fails in some run:
///
/// ```swift
/// await exploreSchedules(count: 100, seed: 4) {
///     let services = WalletServices()
///     let store = TestStore(
///         state: WalletState(),
///         reducer: walletReducer,
///         services: services,
///         middlewares: [rewardMiddleware, bonusMiddleware]
///     )
///     store.exhaustivity = .off
///     await store.send(.levelCompleted)
///     let balance = await services.wallet.balance
///     expectNoDifference(balance, 15)
/// }
/// ```
///
/// When a run fails, its failures are reported as they happen, followed by one that names the
/// run's seed; the other runs report nothing. ``exploreSchedules(replaying:isolation:fileID:filePath:line:column:_:)``
/// with that seed runs that schedule again, and fails the same way.
///
/// A run fails when it reports an issue through IssueReporting (the assertions of a
/// ``TestStore``, the waits of the toolkit, `expectNoDifference`, `reportIssue`) or when `body`
/// throws, so `try #require(...)` ends a run too. A failed `#expect` fails the test but is not
/// seen by the explorer, which goes on to the next run: check with `expectNoDifference` or
/// `#require` in the body.
///
/// The schedules are the same on every run of the test: run `n` from a given `seed` always
/// takes the same seed. Change `seed` to explore other schedules. The main actor's own jobs run
/// in the order they were enqueued; the explorer moves the test's work around them. What a
/// replay repeats exactly is in ``exploreSchedules(replaying:isolation:fileID:filePath:line:column:_:)``.
///
/// - Parameters:
///   - count: How many schedules to run, at most.
///   - seed: The seed the seeds of the runs are drawn from.
///   - isolation: The actor `body` runs on; the caller's by default.
///   - fileID: The file the seed of a failing run, and an error `body` throws, are reported in;
///     defaults to the caller's.
///   - filePath: The file path the seed of a failing run, and an error `body` throws, are
///     reported in; defaults to the caller's.
///   - line: The line the seed of a failing run, and an error `body` throws, are reported at;
///     defaults to the caller's.
///   - column: The column the seed of a failing run, and an error `body` throws, are reported
///     at; defaults to the caller's.
///   - body: The test, run once for each schedule. It makes its test stores itself, so each run
///     starts from scratch.
public func exploreSchedules(
    count: Int = 100,
    seed: UInt64 = 0,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ body: () async throws -> Void
) async {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    var seeds = SplitMix64(seed: seed)
    // The change points of a run are drawn along the longest run so far and its tasks, which
    // each run's seed carries so that a replay draws them the same way.
    var length = PriorityOrder.defaultLength
    var tasks = PriorityOrder.defaultTasks
    var warnedOffMain = false
    for run in stride(from: 1, through: count, by: 1) {
        let runSeed = PriorityOrder.seed(seeds.next(), length: length, tasks: tasks)
        let (failed, shape) = await runSchedule(
            seed: runSeed, reportingErrorsAt: location, warningOffMain: !warnedOffMain, body)
        warnedOffMain = warnedOffMain || shape.offMain > 0
        if run == 1 {
            (length, tasks) = (shape.steps, shape.tasks)
        } else {
            (length, tasks) = (max(length, shape.steps), max(tasks, shape.tasks))
        }
        guard failed else { continue }
        location.report("""
            Schedule \(run) of \(count) failed (seed \(runSeed)). Replay it with \
            `exploreSchedules(replaying: \(runSeed)) { ... }`.
            """)
        return
    }
}

/// Runs `body` once, under the schedule of `seed` that a failing run of
/// ``exploreSchedules(count:seed:isolation:fileID:filePath:line:column:_:)`` reported: the jobs
/// of the test's work are picked in the same order, and the run fails the same way.
///
/// ```swift
/// await exploreSchedules(replaying: 705801848758385353) {
///     // the body that failed, unchanged
/// }
/// ```
///
/// A seed replays a schedule of the same code: a change to the test, to the app or to Lockstep
/// changes the jobs there are, and so what the seed picks.
///
/// A replay is exact when everything that makes a job ready happens on the main queue, where
/// the test's executor and the main actor run and where the generator draws: the work of the
/// test stores, the default actors it calls, the test doubles the test opens and advances. A
/// job that something outside resumes (a callback from
/// a Dispatch queue or a thread, an actor with a custom executor, a `Task { }` on the global
/// executor) becomes ready at a moment no seed controls, and the replay may pick another order;
/// the exploration, and the replay, report a warning naming the seed when a run has such a job.
///
/// - Parameters:
///   - seed: The seed a failing run reported.
///   - isolation: The actor `body` runs on; the caller's by default.
///   - fileID: The file a thrown error is reported in; defaults to the caller's.
///   - filePath: The file path a thrown error is reported in; defaults to the caller's.
///   - line: The line a thrown error is reported at; defaults to the caller's.
///   - column: The column a thrown error is reported at; defaults to the caller's.
///   - body: The test.
public func exploreSchedules(
    replaying seed: UInt64,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ body: () async throws -> Void
) async {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    await runSchedule(seed: seed, reportingErrorsAt: location, warningOffMain: true, body)
}

/// Runs `body` with the executor of `seed` as the test's executor, and returns whether the run
/// failed (an error issue was reported in it, or `body` threw, reported too) and the shape of
/// the run: the jobs of tasks it ran, their tasks, and the jobs made ready off the main queue,
/// which it warns about when `warningOffMain`.
@discardableResult
private func runSchedule(
    seed: UInt64,
    reportingErrorsAt location: SourceLocation,
    warningOffMain: Bool,
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Void
) async -> (failed: Bool, shape: (steps: Int, tasks: Int, offMain: Int)) {
    let executor = SerialTestExecutor(seed: seed)
    let recorder = FailureRecorder(forwardingTo: IssueReporters.current)
    await withIssueReporters([recorder]) {
        await SerialTestExecutor.$exploring.withValue(executor) {
            do {
                try await body()
            } catch {
                location.report("Caught error: \(error)")
            }
            // A test store that outlives the run reports what it left unasserted now, against
            // this run, rather than whenever it is released.
            executor.runEndChecks()
        }
    }
    let offMain = executor.jobsMadeReadyOffMain
    if warningOffMain, offMain > 0 {
        location.warn("""
            \(offMain) job\(offMain == 1 ? " was" : "s were") made ready off the main queue in the \
            schedule of seed \(seed) (a callback from a Dispatch queue or a thread, an actor with a custom \
            executor, a `Task { }` on the global executor): each became ready at a moment no seed \
            controls, so a replay of the seed may take another path.
            """)
    }
    let shape = executor.runShape
    return (recorder.hasFailed, (shape.steps, shape.tasks, offMain))
}

/// Passes every issue on to the reporters that were current before a run, and remembers whether
/// one was a failure.
private final class FailureRecorder: IssueReporter {
    private let reporters: [any IssueReporter]
    private let failures = Lock(0)

    init(forwardingTo reporters: [any IssueReporter]) {
        self.reporters = reporters
    }

    var hasFailed: Bool {
        failures.withLock { $0 > 0 }
    }

    func reportIssue(
        _ message: @autoclosure () -> String?,
        severity: IssueSeverity,
        fileID: StaticString,
        filePath: StaticString,
        line: UInt,
        column: UInt
    ) {
        if severity == .error {
            failures.withLock { $0 += 1 }
        }
        let message = message()
        for reporter in reporters {
            reporter.reportIssue(message, severity: severity, fileID: fileID, filePath: filePath, line: line, column: column)
        }
    }

    func reportIssue(
        _ error: any Error,
        _ message: @autoclosure () -> String?,
        fileID: StaticString,
        filePath: StaticString,
        line: UInt,
        column: UInt
    ) {
        failures.withLock { $0 += 1 }
        let message = message()
        for reporter in reporters {
            reporter.reportIssue(error, message, fileID: fileID, filePath: filePath, line: line, column: column)
        }
    }

    func expectIssue(
        _ message: @autoclosure () -> String?,
        fileID: StaticString,
        filePath: StaticString,
        line: UInt,
        column: UInt
    ) {
        let message = message()
        for reporter in reporters {
            reporter.expectIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
        }
    }

    func expectIssue(
        _ error: any Error,
        _ message: @autoclosure () -> String?,
        fileID: StaticString,
        filePath: StaticString,
        line: UInt,
        column: UInt
    ) {
        let message = message()
        for reporter in reporters {
            reporter.expectIssue(error, message, fileID: fileID, filePath: filePath, line: line, column: column)
        }
    }
}
