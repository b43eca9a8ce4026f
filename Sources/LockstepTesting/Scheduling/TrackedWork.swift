import Lockstep

/// The work of one test that the toolkit can see, so that a wait that can never be satisfied
/// fails at once instead of hanging.
///
/// Inside ``withTrackedWork(isolation:_:)``, every wait of the toolkit (``Gate/arrival(count:fileID:filePath:line:column:)``,
/// ``ManualClock/sleepers(count:fileID:filePath:line:column:)``,
/// ``EventSource/subscribed(fileID:filePath:line:column:)``, ``TrackedWorkTask/finish(fileID:filePath:line:column:)``,
/// the next action of ``MockStore/dispatchedActions``, the next value of a buffered selection,
/// the query client's `waitUntilIdle()`) knows whether any tracked work could still satisfy it. When every piece of tracked work has finished or is parked on a test double that
/// only the test can release, and the wait is not satisfied, the wait reports an issue that
/// names what it waited for and what each piece of work is parked on, and returns:
///
/// ```swift
/// @Test func saveReachesTheServer() async {
///     await withTrackedWork { work in
///         let clock = ManualClock(name: "clock")
///         let server = Gate(name: "server")
///         let save = work.start("the save request") { await client.save(profile, server, clock) }
///         await server.arrival()
///         server.open()
///         await save.finish()
///     }
/// }
/// ```
///
/// Tracked work is work started with ``start(_:operation:)``, the work of a ``TestStore``
/// made in the scope, and the runs and eviction timers of the query layer started in either. A task the test starts by hand (`Task { ... }`) is not tracked: a wait
/// cannot know that it will still arrive, so start such work with ``start(_:operation:)``
/// instead. When untracked work reaches a test double in the scope, failure messages say so.
public final class TrackedWork: Sendable {
    let monitor = WorkMonitor(parent: WorkMonitor.scope)
    private let tasks = Lock<[Task<Void, Never>]>([])
    /// The executor of the scope's work: its monitor's (each run of `exploreSchedules` has its
    /// own).
    private var executor: SerialTestExecutor { monitor.executor }

    /// How long the toolkit's waits give tracked work that waits on something the toolkit cannot
    /// see, counted in turns of the main queue in which no test executor runs a job: 1,000 unless
    /// a test sets it.
    ///
    /// Everything a test store starts runs on ``SerialTestExecutor``, so when that executor has
    /// nothing to run, every task of the test's work is suspended. A task suspended on a test
    /// double (``Gate``, ``ManualClock``, ``EventSource``) is parked, and a wait that nothing can
    /// satisfy fails at once. A task suspended on anything else (a swift-clocks `TestClock`, a
    /// stream fed from outside the test, real I/O) still counts as running; once the executor
    /// has been quiet for this many turns, the wait goes on without it: `send` returns,
    /// `receive` and the test doubles' waits fail, naming the task. A test never waits until its
    /// time limit.
    ///
    /// The turns are not a duration: a test whose work waits for real I/O should use a test
    /// double instead, or raise the period for the code that needs it, before it makes its
    /// test store:
    ///
    /// ```swift
    /// await TrackedWork.$quietPeriod.withValue(100_000) {
    ///     let store = TestStore(state: Download(), reducer: downloadReducer, middlewares: [downloadMiddleware])
    ///     await store.send(.downloadTapped)
    /// }
    /// ```
    @TaskLocal public static var quietPeriod = 1_000

    init() {}

    /// Starts `operation` as tracked work, described by `label` in failure messages.
    ///
    /// ```swift
    /// let timer = work.start("an eviction timer") { try await clock.sleep(for: .seconds(300)) }
    /// ```
    ///
    /// - Parameters:
    ///   - label: What the work is, as failure messages name it ("the save request").
    ///   - operation: The work.
    /// - Returns: The work, to wait for, read the result of, or cancel.
    @discardableResult
    public func start<Success: Sendable>(
        _ label: String,
        operation: @escaping @Sendable () async throws -> Success
    ) -> TrackedWorkTask<Success> {
        let monitor = monitor
        let trackedTask = TrackedTask(monitor: monitor, label: label)
        let completion = TrackedWorkCompletion<Success>(label: label)
        let task = Task(executorPreference: executor) {
            let result: Result<Success, any Error>
            do {
                result = .success(try await WorkTracking.$scope.withValue(monitor) {
                    try await WorkTracking.$unit.withValue(trackedTask) {
                        try await operation()
                    }
                })
            } catch {
                result = .failure(error)
            }
            // The waiters run again before the work counts as finished, so the scope never sees
            // a moment with nothing running while they go on.
            completion.complete(with: result)
            trackedTask.finish()
        }
        tasks.withLock { $0.append(task) }
        return TrackedWorkTask(task: task, completion: completion)
    }

    /// One line for each piece of tracked work that has not finished: what it is and what it is
    /// doing ("the save request parked on Gate 'server'").
    public var inFlight: [String] {
        monitor.inFlight
    }

    /// Waits until no tracked work is running: every piece has finished, is parked on a test
    /// double (a closed ``Gate``, a ``ManualClock``, an ``EventSource``), or waits for tracked
    /// work that is. Returns at once when nothing tracked runs now, and early when the calling
    /// task is cancelled.
    ///
    /// It tells the test that every piece of work it started has gone as far as it can without
    /// the test, whatever each is stopped on, where a wait on one double sees only the work that
    /// reached that double:
    ///
    /// ```swift
    /// await withTrackedWork { work in
    ///     for photo in photos {
    ///         work.start("the upload of \(photo.name)") { try await uploader.upload(photo) }
    ///     }
    ///     await work.waitUntilParked()   // each upload is held by the server, or waits for one that is
    ///     #expect(uploader.pendingCount == photos.count)
    ///     server.open()
    /// }
    /// ```
    ///
    /// Work counts as running from ``start(_:operation:)`` until it parks, waits or finishes, so
    /// the wait cannot return before work started just now has had its turn. Work that waits
    /// for something the toolkit cannot see (a task started by hand, a continuation of its own)
    /// counts as running, and the wait goes on until that work is done. Called from tracked work
    /// of the scope, the wait does not count its caller.
    public func waitUntilParked() async {
        let caller = TrackedTask.current
        await monitor.waitUntilQuiescent(besides: caller)
    }

    fileprivate func cancelAll() {
        for task in tasks.withLock({ $0 }) {
            task.cancel()
        }
    }
}

/// Runs `body` with a scope of ``TrackedWork``: every wait of the toolkit inside it fails at once
/// when nothing tracked can satisfy it, rather than hanging.
///
/// ```swift
/// await withTrackedWork { work in
///     let timer = work.start("an eviction timer") { try await clock.sleep(for: .seconds(300)) }
///     await clock.sleepers(count: 1)
///     await clock.advance(by: .seconds(300))
///     await timer.finish()
/// }
/// ```
///
/// Work still running when `body` returns is cancelled.
///
/// - Parameters:
///   - isolation: The actor `body` runs on; the caller's by default.
///   - body: The test, given the scope to start tracked work in.
/// - Returns: What `body` returns.
public func withTrackedWork<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (TrackedWork) async throws -> Result
) async rethrows -> Result {
    let work = TrackedWork()
    defer { work.cancelAll() }
    return try await WorkTracking.$scope.withValue(work.monitor) {
        try await body(work)
    }
}

/// A piece of work started by ``TrackedWork/start(_:operation:)``; `Success` is what the work
/// returns.
///
/// ```swift
/// try await withTrackedWork { work in
///   let save: TrackedWorkTask<Profile> = work.start("the save request") { try await client.save(profile) }
///   await server.arrival()
///   server.open()
///   let saved = try await save.value()
///   #expect(saved?.name == "Ada")
/// }
/// ```
public struct TrackedWorkTask<Success: Sendable>: Sendable {
    let task: Task<Void, Never>
    let completion: TrackedWorkCompletion<Success>

    /// Whether the work has finished.
    public var isFinished: Bool {
        completion.result != nil
    }

    /// Waits until the work has finished. Fails at once, naming what each piece of work is
    /// parked on, when nothing tracked can let it finish; returns early when the calling task is
    /// cancelled.
    ///
    /// ```swift
    /// server.open()
    /// await save.finish()
    /// ```
    ///
    /// - Parameters:
    ///   - fileID: The file a failure is reported in; defaults to the caller's.
    ///   - filePath: The file path a failure is reported in; defaults to the caller's.
    ///   - line: The line a failure is reported at; defaults to the caller's.
    ///   - column: The column a failure is reported at; defaults to the caller's.
    public func finish(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        _ = await completion.wait(at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Waits until the work has finished and returns its result, or throws its error. Returns
    /// `nil`, after reporting a failure, when nothing tracked can let it finish, and when the
    /// calling task is cancelled first.
    ///
    /// ```swift
    /// let saved = try await save.value()
    /// #expect(saved?.name == "Ada")
    /// ```
    ///
    /// - Parameters:
    ///   - fileID: The file a failure is reported in; defaults to the caller's.
    ///   - filePath: The file path a failure is reported in; defaults to the caller's.
    ///   - line: The line a failure is reported at; defaults to the caller's.
    ///   - column: The column a failure is reported at; defaults to the caller's.
    public func value(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async throws -> Success? {
        let result = await completion.wait(at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        return try result?.get()
    }

    /// Cancels the work and returns once it has ended.
    ///
    /// ```swift
    /// await timer.cancel()
    /// ```
    public func cancel() async {
        task.cancel()
        await task.value
    }
}

/// The result of a piece of tracked work, and those waiting for it.
final class TrackedWorkCompletion<Success: Sendable>: Sendable {
    private struct State {
        var result: Result<Success, any Error>?
        var waiters = WaiterQueue<Void, Result<Success, any Error>>()
    }

    private let state = Lock(State())
    private let label: String

    init(label: String) {
        self.label = label
    }

    var result: Result<Success, any Error>? {
        state.withLock { $0.result }
    }

    func complete(with result: Result<Success, any Error>) {
        state.withLockResuming { state in
            state.result = result
            return state.waiters.satisfy { _ in result }
        }
    }

    func wait(at location: SourceLocation) async -> Result<Success, any Error>? {
        let outcome = await toolkitWait(
            on: state, \.waiters, for: (),
            expecting: "\(label) to finish",
            at: location
        ) { state in
            state.result
        }
        guard case .satisfied(let result) = outcome else { return nil }
        return result
    }
}
