import CustomDump
import IssueReporting
@_spi(Testing) import Lockstep

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
    public enum Exhaustivity: Sendable, Equatable {
        /// Every state change and every received action must be asserted, and no work may be
        /// left running when the test ends.
        case on
        /// Assertions check only what they set; unasserted actions and work are ignored.
        case off
    }

    /// The store the test drives.
    public let store: Store<State, Action>

    /// How strictly the test store checks the test. `.on` by default.
    public var exhaustivity: Exhaustivity = .on {
        didSet { ledger.isExhaustive = exhaustivity == .on }
    }

    /// The store's current state.
    public var state: State { store.state }

    private struct ObservedReduction {
        let action: Action
        let before: State
        let after: State
        let origin: DispatchOrigin
    }

    /// The test the store was made in (`nil` outside any test), to catch a store kept by one
    /// test and used by another, or used after its test ended.
    var owningTest = TestContext.current

    /// Tracks the store's work; a scope of `withTrackedWork` sees it too.
    private let monitor = WorkMonitor(parent: WorkMonitor.scope)
    private var reductions: [ObservedReduction] = []
    private var received: [ObservedReduction] = []
    private let ledger: Ledger

    /// Creates a test store over a store with services, as `Store` is created.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The app's reducer.
    ///   - services: The services the middlewares receive, usually with test doubles.
    ///   - middlewares: The app's middlewares.
    ///   - effects: Effects to run for the life of the store.
    ///   - observers: Observers of every reduction (a logger, a recorder), as a `Store` takes.
    ///   - fileID: The file end-of-test failures are reported in; defaults to the caller's.
    ///   - filePath: The file path end-of-test failures are reported in; defaults to the caller's.
    ///   - line: The line end-of-test failures are reported at; defaults to the caller's.
    ///   - column: The column end-of-test failures are reported at; defaults to the caller's.
    public convenience init<Services: Sendable>(
        state: State,
        reducer: @escaping (_ state: State, _ action: Action) -> State,
        services: Services,
        middlewares: [Middleware<State, Action, Services>],
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = [],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        self.init(
            state: state, reducer: { $0 = reducer($0, $1) }, services: services, middlewares: middlewares,
            effects: effects, observers: observers, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Creates a test store over a store whose middlewares need no services.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The app's reducer.
    ///   - middlewares: The app's middlewares.
    ///   - effects: Effects to run for the life of the store.
    ///   - observers: Observers of every reduction (a logger, a recorder), as a `Store` takes.
    ///   - fileID: The file end-of-test failures are reported in; defaults to the caller's.
    ///   - filePath: The file path end-of-test failures are reported in; defaults to the caller's.
    ///   - line: The line end-of-test failures are reported at; defaults to the caller's.
    ///   - column: The column end-of-test failures are reported at; defaults to the caller's.
    public convenience init(
        state: State,
        reducer: @escaping (_ state: State, _ action: Action) -> State,
        middlewares: [@Sendable (
            _ state: State,
            _ action: Action,
            _ dispatch: Dispatcher<Action>
        ) async -> Void] = [],
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = [],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        self.init(
            state: state, reducer: { $0 = reducer($0, $1) }, middlewares: middlewares,
            effects: effects, observers: observers, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Creates a test store over a store with services and an in-place reducer.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The app's reducer, changing the state in place.
    ///   - services: The services the middlewares receive, usually with test doubles.
    ///   - middlewares: The app's middlewares.
    ///   - effects: Effects to run for the life of the store.
    ///   - observers: Observers of every reduction (a logger, a recorder), as a `Store` takes.
    ///   - fileID: The file end-of-test failures are reported in; defaults to the caller's.
    ///   - filePath: The file path end-of-test failures are reported in; defaults to the caller's.
    ///   - line: The line end-of-test failures are reported at; defaults to the caller's.
    ///   - column: The column end-of-test failures are reported at; defaults to the caller's.
    public convenience init<Services: Sendable>(
        state: State,
        reducer: @escaping (_ state: inout State, _ action: Action) -> Void,
        services: Services,
        middlewares: [Middleware<State, Action, Services>],
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = [],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        self.init(effects: effects, location: location) { sinkObserver in
            Store(
                state: state, reducer: reducer, services: services, middlewares: middlewares,
                observers: observers + [sinkObserver])
        }
    }

    /// Creates a test store over a store with an in-place reducer and middlewares that need no
    /// services.
    ///
    /// ```swift
    /// let store = TestStore(state: Counter(), reducer: { (state: inout Counter, action: CounterAction) in
    ///     state.count += 1
    /// })
    /// await store.send(.increment) { $0.count = 1 }
    /// ```
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The app's reducer, changing the state in place.
    ///   - middlewares: The app's middlewares.
    ///   - effects: Effects to run for the life of the store.
    ///   - observers: Observers of every reduction (a logger, a recorder), as a `Store` takes.
    ///   - fileID: The file end-of-test failures are reported in; defaults to the caller's.
    ///   - filePath: The file path end-of-test failures are reported in; defaults to the caller's.
    ///   - line: The line end-of-test failures are reported at; defaults to the caller's.
    ///   - column: The column end-of-test failures are reported at; defaults to the caller's.
    public convenience init(
        state: State,
        reducer: @escaping (_ state: inout State, _ action: Action) -> Void,
        middlewares: [PlainMiddleware<State, Action>] = [],
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = [],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        self.init(effects: effects, location: location) { sinkObserver in
            Store(state: state, reducer: reducer, middlewares: middlewares, observers: observers + [sinkObserver])
        }
    }

    /// Makes the store with `makeStore`, which adds the given observer to the store's own: the
    /// test store hears every reduction through it.
    private init(
        effects: [Effect<Action>],
        location: SourceLocation,
        makeStore: (ActionObserver<State, Action>) -> Store<State, Action>
    ) {
        let sink = ReductionSink<State, Action>()
        let store = makeStore(sink.observer)
        self.store = store
        self.ledger = Ledger(location: location)
        store.trackEffects(with: monitor)
        sink.receive = { [weak self] reduction in
            self?.record(ObservedReduction(
                action: reduction.action, before: reduction.stateBefore, after: reduction.stateAfter,
                origin: reduction.origin))
        }
        for effect in effects {
            store.startOwnedEffect(effect)
        }
    }

    deinit {
        ledger.checkEnd(monitor: monitor)
    }

    /// Reports a call made from a test other than the one that made the store, or from no test:
    /// a test store kept in a shared place, or used by a task that outlived its test. The call
    /// still runs, so nothing is lost, but its assertions count against the wrong test.
    private func checkOwningTest(calling call: String, at location: SourceLocation) {
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
        if exhaustivity == .on, !received.isEmpty {
            location.report("""
                Must handle \(received.count) received action(s) before sending an action:

                \(received.map { "  " + describe($0.action) }.joined(separator: "\n"))

                Assert them with `receive`, or set `exhaustivity = .off`.
                """)
        }
        received.removeAll()
        ledger.received = []

        let label = "send(\(describe(action)))"
        let trackedTask = TrackedTask(monitor: monitor, label: label)
        let start = reductions.count
        let store = self.store
        let task = Task { @MainActor in
            await TrackedTask.$current.withValue(trackedTask) {
                await store.dispatch(action)
            }
            trackedTask.finish()
        }
        ledger.add(task)
        await monitor.waitUntilQuiescent()

        if let reduction = reductions[start...].first(where: { $0.origin == .external }) {
            check(reduction, updateStateToExpectedResult, at: location)
        } else {
            location.report("The store did not reduce \(describe(action)).")
        }
        return TestStoreTask(task: task, trackedTask: trackedTask, monitor: monitor, label: label)
    }

    /// Asserts that the side effects dispatched `expectedAction` next, and the state right
    /// after its reducer.
    ///
    /// - Parameters:
    ///   - expectedAction: The action expected next.
    ///   - updateStateToExpectedResult: Mutates the state before the action into the state
    ///     expected right after its reducer.
    ///   - fileID: The file a failure is reported in; defaults to the caller's.
    ///   - filePath: The file path a failure is reported in; defaults to the caller's.
    ///   - line: The line a failure is reported at; defaults to the caller's.
    ///   - column: The column a failure is reported at; defaults to the caller's.
    public func receive(
        _ expectedAction: Action,
        assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async where Action: Equatable {
        await receive(
            expecting: describe(expectedAction),
            matching: { $0 == expectedAction },
            mismatch: { actual in
                let difference = diff(expectedAction, actual, format: .proportional)
                    .map { "\n\n\($0.indent(by: 2))\n\n(Expected: −, Received: +)" } ?? ""
                return "Received an unexpected action:\(difference)"
            },
            updateStateToExpectedResult,
            at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    /// Asserts that the side effects dispatched an action of the case that `extract` finds
    /// next, and the state right after its reducer. For actions that are not `Equatable`:
    ///
    /// ```swift
    /// await store.receive(\AppAction.today) { $0.today.isLoading = false }
    /// ```
    ///
    /// - Parameters:
    ///   - extract: Returns the payload of the expected case, or `nil` for other actions.
    ///   - updateStateToExpectedResult: Mutates the state before the action into the state
    ///     expected right after its reducer.
    ///   - fileID: The file a failure is reported in; defaults to the caller's.
    ///   - filePath: The file path a failure is reported in; defaults to the caller's.
    ///   - line: The line a failure is reported at; defaults to the caller's.
    ///   - column: The column a failure is reported at; defaults to the caller's.
    public func receive<Value>(
        _ extract: (Action) -> Value?,
        assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        await receive(
            expecting: "an action of the expected case",
            matching: { extract($0) != nil },
            mismatch: { "Received an action of another case than expected:\n\n\(describe($0).indent(by: 2))" },
            updateStateToExpectedResult,
            at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    /// Asserts that the side effects dispatched an action that `isMatching` accepts next, and the
    /// state right after its reducer.
    ///
    /// For an action whose payload the test cannot or need not spell out:
    ///
    /// ```swift
    /// await store.receive(where: { action in
    ///     if case .search(.searchFinished(query: "du", _)) = action { true } else { false }
    /// }) {
    ///     $0.search.isSearching = false
    ///     $0.search.results = ["Dune", "Dune Messiah"]
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - isMatching: Returns whether an action is the one expected.
    ///   - updateStateToExpectedResult: Mutates the state before the action into the state
    ///     expected right after its reducer.
    ///   - fileID: The file a failure is reported in; defaults to the caller's.
    ///   - filePath: The file path a failure is reported in; defaults to the caller's.
    ///   - line: The line a failure is reported at; defaults to the caller's.
    ///   - column: The column a failure is reported at; defaults to the caller's.
    public func receive(
        where isMatching: (Action) -> Bool,
        assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        await receive(
            expecting: "an action matching the predicate",
            matching: isMatching,
            mismatch: { "Received an action the predicate rejects:\n\n\(describe($0).indent(by: 2))" },
            updateStateToExpectedResult,
            at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
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

    private func receive(
        expecting expectation: String,
        matching isMatching: (Action) -> Bool,
        mismatch: (Action) -> String,
        _ updateStateToExpectedResult: ((inout State) throws -> Void)?,
        at location: SourceLocation
    ) async {
        checkOwningTest(calling: "receive(\(expectation))", at: location)
        // Actions are dispatched by work in flight: let it all run first.
        await monitor.waitUntilQuiescent()
        if exhaustivity == .off {
            while let first = received.first, !isMatching(first.action) {
                received.removeFirst()
            }
        }
        guard !received.isEmpty else {
            location.report("""
                Expected to receive \(expectation), but no action was received, and nothing in \
                flight can send one\(parkedSummary()).
                """)
            return
        }
        let reduction = received.removeFirst()
        ledger.received = received.map { describe($0.action) }
        guard isMatching(reduction.action) else {
            location.report(mismatch(reduction.action))
            return
        }
        check(reduction, updateStateToExpectedResult, at: location)
    }

    private func record(_ reduction: ObservedReduction) {
        reductions.append(reduction)
        if reduction.origin != .external {
            received.append(reduction)
            ledger.received = received.map { describe($0.action) }
        }
    }

    private func check(
        _ reduction: ObservedReduction,
        _ updateStateToExpectedResult: ((inout State) throws -> Void)?,
        at location: SourceLocation
    ) {
        var expected = exhaustivity == .on ? reduction.before : reduction.after
        do {
            try updateStateToExpectedResult?(&expected)
        } catch {
            location.report("The assertion closure of \(describe(reduction.action)) threw: \(error)")
            return
        }
        guard expected != reduction.after else { return }
        let difference = diff(expected, reduction.after, format: .proportional)
            .map { "\($0.indent(by: 2))\n\n(Expected: −, Actual: +)" } ?? ""
        let headline = updateStateToExpectedResult == nil
            ? "State was not expected to change, but \(describe(reduction.action)) changed it:"
            : "The state after \(describe(reduction.action)) does not match the expectation:"
        location.report("\(headline)\n\n\(difference)")
    }

    private func parkedSummary() -> String {
        let inFlight = monitor.inFlight
        guard !inFlight.isEmpty else { return "" }
        return " (in flight: \(inFlight.joined(separator: "; ")))"
    }
}

/// Hands a test store every reduction of its store through the public observer mechanism. The
/// store is made before the test store, so the observer reaches it through this sink.
@MainActor
final class ReductionSink<State: Sendable, Action: Sendable> {
    var receive: ((Reduction<State, Action>) -> Void)?

    /// The observer to give the store.
    var observer: ActionObserver<State, Action> {
        ActionObserver { reduction in self.receive?(reduction) }
    }
}
