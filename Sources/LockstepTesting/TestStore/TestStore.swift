import CustomDump
import IssueReporting
import Lockstep

/// Drives a real `Store` one step at a time and asserts every step: the state each action
/// produces and every action the side effects send back.
///
/// ```swift
/// @MainActor
/// @Test func loadShifts() async {
///     let store = TestStore(
///         state: AppState(),
///         reducer: appReducer,
///         services: ServiceContainer(calendarService: MockCalendarService(shifts: [morning])),
///         middlewares: [todayMiddleware]
///     )
///
///     await store.send(.today(.loadShifts)) {
///         $0.today.isLoading = true
///     }
///     await store.receive(.today(.shiftsLoaded(.success([morning])))) {
///         $0.today.isLoading = false
///         $0.today.scheduledShifts = [morning]
///     }
/// }
/// ```
///
/// ## The same run every time
///
/// Everything the store starts (the task of each `send`, the middlewares and their child tasks,
/// effects, work under a cancellation id, and the default actors these call) runs on
/// ``SerialTestExecutor``, one job at a time in a fixed order, so racing middlewares dispatch
/// their actions in the same order on every run. A `Task { }` started inside a middleware is
/// not covered: see "Why every run is the same" in the testing article. A test store made inside
/// ``exploreSchedules(count:seed:isolation:fileID:filePath:line:column:_:)`` takes, on purpose,
/// another order in each run, and the same order again for the same seed.
///
/// ## When `send` returns
///
/// `send` returns once every task the action started has either finished or is parked on one
/// of this module's test doubles (a ``Gate``, an ``EventSource``), which tell the test store when
/// they hold a task. It never waits on a clock and never polls: the store counts the tasks that
/// are running, and the doubles mark the ones they hold. Work parked on a double is returned as
/// a ``TestStoreTask`` to finish or cancel.
///
/// ## Exhaustive by default
///
/// With ``exhaustivity`` `.on`, the assertion closure of ``send(_:assert:fileID:filePath:line:column:)``
/// mutates the state before the action into the expected state right after its reducer, and
/// any difference is a failure, shown as a diff. Every action the side effects dispatch must be
/// asserted with `receive`, in order, before the next `send`. When the test store is released at
/// the end of the test, an action not received, and work still running or parked that the test
/// neither finished nor cancelled, are failures that name the action that started the work.
///
/// With `.off`, assertions check only what their closures set, unasserted received actions are
/// skipped, and the end of the test checks nothing.
///
/// A `receive` that cannot be satisfied (nothing is queued, and every task is finished or
/// parked) fails at once with a message that says so, instead of waiting for a timeout.
///
/// Failures are reported through IssueReporting, so they fail Swift Testing and XCTest tests
/// alike, at the line of the failing assertion.
@MainActor
public final class TestStore<State: Equatable & Sendable, Action: Sendable> {
    /// How strictly a test store checks the test.
    ///
    /// ```swift
    /// let store = TestStore(state: AppState(), reducer: appReducer, services: services, middlewares: middlewares)
    /// store.exhaustivity = .off   // check only what this test is about
    ///
    /// await store.send(.today(.loadShifts))
    /// await store.send(.schedule(.selectDay(4))) { $0.schedule.selectedDay = 4 }
    /// ```
    ///
    /// ``TestStore/withExhaustivity(_:_:)`` sets it for a part of a test alone.
    public enum Exhaustivity: Sendable, Equatable {
        /// Every state change and every received action must be asserted, and no work may be
        /// left running when the test ends.
        case on
        /// Assertions check only what they set; unasserted actions and work are ignored. With
        /// `showSkippedAssertions`, what was skipped (state changes no assertion set, received
        /// actions no `receive` asserted) is listed as known issues, which do not fail the test.
        case off(showSkippedAssertions: Bool)

        /// Assertions check only what they set, and what they skip is not listed.
        public static var off: Self { .off(showSkippedAssertions: false) }

        /// Whether skipped assertions are listed.
        var showsSkippedAssertions: Bool {
            if case .off(true) = self { true } else { false }
        }
    }

    /// The store the test drives.
    public let store: Store<State, Action>

    /// How strictly the test store checks the test. `.on` by default.
    public var exhaustivity: Exhaustivity = .on {
        didSet { ledger.isExhaustive = isExhaustive }
    }

    /// The store's current state.
    public var state: State { store.state }

    /// Whether the feature dismissed itself: a middleware of the store called `dispatch.dismiss()`
    /// where no parent presents the feature, as in a test store of the feature alone.
    ///
    /// ```swift
    /// let store = TestStore(state: EditorState(), reducer: editorReducer, services: services) {
    ///     editorMiddleware
    /// }
    /// await store.send(.saveTapped)
    /// await store.receive(.saved(draft))
    /// #expect(store.isDismissed)
    /// ```
    ///
    /// A dismissal ends the feature's work as a parent's would: the work of every `send` is
    /// cancelled, so what it dispatches afterwards is dropped, and a later `send` is reported.
    public private(set) var isDismissed = false

    /// Whether ``exhaustivity`` is `.on`.
    var isExhaustive: Bool { exhaustivity == .on }

    struct ObservedReduction {
        let action: Action
        let before: State
        let after: State
        let origin: DispatchOrigin
        /// The count of shared writes before and right after the reduction: the moments at
        /// which ``Shared`` values in `before` and `after` are read (see `TestStore+Shared`).
        let beforeVersion: UInt64
        let afterVersion: UInt64
    }

    /// The test the store was made in (`nil` outside any test), to catch a store kept by one
    /// test and used by another, or used after its test ended.
    var owningTest = TestContext.current

    /// Tracks the store's work; a scope of `withTrackedWork` sees it too, and otherwise the
    /// monitor of the test, which every wait of the toolkit in the test asks.
    let monitor = WorkMonitor(parent: WorkMonitor.scope ?? WorkMonitor.forCurrentTest())
    /// The executor the store's work prefers: its monitor's, the executor of the test's work
    /// scope (each run of `exploreSchedules` has its own).
    var executor: SerialTestExecutor { monitor.executor }
    /// The reductions a running `send` may still check, from the oldest such send's first one.
    private var reductions: [ObservedReduction] = []
    /// The number of reductions let go of before the first one of `reductions`.
    private var reductionsDropped = 0
    /// Where each running `send`'s reductions begin, counted from the store's first reduction,
    /// with the moment of shared writes it began at.
    private(set) var runningSends: [(start: Int, version: UInt64)] = [] {
        didSet { moveSharedFloor() }
    }
    /// What `.off(showSkippedAssertions: true)` listed, in order, for the toolkit's own tests.
    var skippedAssertionsShown: [String] = []
    var received: [ObservedReduction] = [] {
        didSet { moveSharedFloor() }
    }
    /// The count of shared writes right after the last reduction (at first, when the store was
    /// made): the moment the state before the next one is read at.
    var sharedVersion: UInt64 = 0 {
        didSet { moveSharedFloor() }
    }
    /// The store's id among the recorders of shared writes.
    package let sharedRecorder: Int
    let ledger: TestStoreLedger

    /// Makes the store with `makeStore`, which adds the given observer to the store's own: the
    /// test store hears every reduction through it.
    init(
        effects: [Effect<Action>],
        location: SourceLocation,
        makeStore: (ActionObserver<State, Action>) -> Store<State, Action>
    ) {
        let sink = ReductionSink<State, Action>()
        let store = makeStore(sink.observer)
        self.store = store
        self.ledger = TestStoreLedger(location: location)
        sharedRecorder = SharedVersions.startRecording()
        if let run = SerialTestExecutor.exploring {
            // A store that outlives its explored run is checked when the run ends, so that its
            // failure counts against that run's seed.
            let (ledger, monitor) = (ledger, monitor)
            run.checkAtEnd { [weak ledger] in ledger?.checkEnd(monitor: monitor) }
        }
        store.installTracking(monitor)
        store.preferExecutor(executor)
        store.installDismissal { [weak self] in
            await self?.recordDismissal()
        }
        sharedVersion = SharedVersions.now
        sink.receive = { [weak self] reduction in
            guard let self else { return }
            // A write to a shared value made between two reductions (by a middleware) is part
            // of the next one's change, as it would be for a test that read the state then.
            let afterVersion = SharedVersions.now
            record(ObservedReduction(
                action: reduction.action, before: reduction.stateBefore, after: reduction.stateAfter,
                origin: reduction.origin, beforeVersion: sharedVersion, afterVersion: afterVersion))
            sharedVersion = afterVersion
        }
        for effect in effects {
            store.startOwnedEffect(effect)
        }
    }

    deinit {
        SharedVersions.stopRecording(sharedRecorder)
        ledger.checkEnd(monitor: monitor)
    }

    /// Reports a call made from a test other than the one that made the store, or from no test:
    /// a test store kept in a shared place, or used by a task that outlived its test. The call
    /// still runs, so nothing is lost, but its assertions count against the wrong test.
    func checkOwningTest(calling call: String, at location: SourceLocation) {
        let current = TestContext.current
        guard current != owningTest else { return }
        let made = owningTest == nil ? "outside any test" : "in another test"
        let used = current == nil ? "outside any test (after its test ended?)" : "in this test"
        location.report("""
            This TestStore was made \(made), and \(call) is called \(used). A test store \
            belongs to the test that made it: make a new one in each test.
            """)
    }

    /// Sends `action` to the store and asserts the state right after its reducer.
    ///
    /// - Parameters:
    ///   - action: The action to dispatch.
    ///   - updateStateToExpectedResult: Mutates the state before the action into the state
    ///     expected right after its reducer. Omit it when the action changes nothing.
    ///   - fileID: The file a failure is reported in; defaults to the caller's.
    ///   - filePath: The file path a failure is reported in; defaults to the caller's.
    ///   - line: The line a failure is reported at; defaults to the caller's.
    ///   - column: The column a failure is reported at; defaults to the caller's.
    /// - Returns: The work the action started, finished or parked on a test double.
    @discardableResult
    public func send(
        _ action: Action,
        assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> TestStoreTask {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        checkOwningTest(calling: "send(\(describe(action)))", at: location)
        if isExhaustive, !received.isEmpty {
            location.report("""
                Must handle \(received.count) received action(s) before sending an action:

                \(received.map { "  " + describe($0.action) }.joined(separator: "\n"))

                Assert them with `receive`, or set `exhaustivity = .off`.
                """)
        } else if !received.isEmpty {
            showSkipped("\(received.count) received action(s) were not asserted", received.map(\.action), at: location)
        }
        received.removeAll()
        ledger.received = []
        if isDismissed {
            location.report("""
                \(describe(action)) was sent to a test store whose feature dismissed itself: the \
                feature is gone in the app, and nothing sends it actions.
                """)
        }

        let label = "send(\(describe(action)))"
        let trackedTask = TrackedTask(monitor: monitor, label: label)
        let start = reductionsDropped + reductions.count
        runningSends.append((start, sharedVersion))
        let store = self.store
        // The task holds the store weakly: the strong reference lives in `dispatch`'s frame
        // alone, which has returned when the tracked task finishes, so a test that drops its
        // test store once every send has finished frees the store at once.
        let weakStore = WeakStore(store)
        let task = Task(executorPreference: executor) {
            await Self.dispatch(action, as: trackedTask, to: weakStore)
        }
        ledger.add(task)
        await monitor.waitUntilQuiescent()

        if let reduction = reductions[(start - reductionsDropped)...].first(where: { $0.origin == .external }) {
            check(reduction, updateStateToExpectedResult, at: location)
        } else {
            location.report("The store did not reduce \(describe(action)).")
        }
        finishSend(startingAt: start)
        return TestStoreTask(task: task, trackedTask: trackedTask, monitor: monitor, label: label)
    }

    /// Dispatches `action` as the tracked task of a `send`, which is finished once the dispatch
    /// returns.
    private static func dispatch(_ action: Action, as trackedTask: TrackedTask, to store: WeakStore<State, Action>) async {
        await dispatch(action, toLive: store.store, as: trackedTask)
        trackedTask.finish()
    }

    private static func dispatch(_ action: Action, toLive store: Store<State, Action>?, as trackedTask: TrackedTask) async {
        guard let store else { return }
        await WorkTracking.$unit.withValue(trackedTask) {
            await store.dispatch(action)
        }
    }

    /// Records that the feature dismissed itself, and ends its work, as the parent that
    /// presents it in the app would.
    private func recordDismissal() {
        isDismissed = true
        for task in ledger.sendTasks {
            task.cancel()
        }
    }

    /// Drops the received actions not asserted yet.
    ///
    /// For a test that checks only the end of a flow: the next ``send(_:assert:fileID:filePath:line:column:)``
    /// no longer fails over the actions it skipped.
    ///
    /// ```swift
    /// await store.send(.list(.load)) { $0.list.isLoading = true }
    /// store.skipReceivedActions()
    /// #expect(store.state.list.rows.count == 2)
    /// ```
    public func skipReceivedActions() {
        received.removeAll()
        ledger.received = []
    }

    /// Lets go of the reductions that no running `send` may check any more, once the send whose
    /// reductions begin at `start` has checked its own.
    private func finishSend(startingAt start: Int) {
        if let index = runningSends.firstIndex(where: { $0.start == start }) {
            runningSends.remove(at: index)
        }
        let keepFrom = runningSends.map(\.start).min() ?? reductionsDropped + reductions.count
        let drop = keepFrom - reductionsDropped
        guard drop > 0 else { return }
        reductions.removeFirst(drop)
        reductionsDropped += drop
    }

    private func record(_ reduction: ObservedReduction) {
        reductions.append(reduction)
        if reduction.origin != .external {
            received.append(reduction)
            ledger.received = received.map { describe($0.action) }
        }
    }

    func check(
        _ reduction: ObservedReduction,
        _ updateStateToExpectedResult: ((inout State) throws -> Void)?,
        at location: SourceLocation
    ) {
        let expected: State
        let reading: SharedReading
        do {
            (expected, reading) = try isExhaustive
                ? expectation(from: reduction.before, at: reduction.beforeVersion, updateStateToExpectedResult ?? { _ in })
                : expectation(from: reduction.after, at: reduction.afterVersion, updateStateToExpectedResult ?? { _ in })
        } catch {
            location.report("The assertion closure of \(describe(reduction.action)) threw: \(error)")
            return
        }
        guard !matches(expected, reading, reduction.after, at: reduction.afterVersion) else {
            if exhaustivity.showsSkippedAssertions {
                showSkippedStateChanges(of: reduction, updateStateToExpectedResult, at: location)
            }
            return
        }
        let difference = self.difference(expected, reading, reduction.after, at: reduction.afterVersion) ?? ""
        let headline = updateStateToExpectedResult == nil
            ? "State was not expected to change, but \(describe(reduction.action)) changed it:"
            : "The state after \(describe(reduction.action)) does not match the expectation:"
        location.report("\(headline)\n\n\(difference)")
    }

    func parkedSummary() -> String {
        guard !monitor.inFlight.isEmpty else { return "" }
        return " (in flight: \(monitor.inFlightAtRest))"
    }
}

/// A store held weakly, for the task of a test store's `send`.
private final class WeakStore<State: Sendable, Action: Sendable>: Sendable {
    weak let store: Store<State, Action>?

    init(_ store: Store<State, Action>) {
        self.store = store
    }
}
