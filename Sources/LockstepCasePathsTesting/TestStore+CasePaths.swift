import CasePaths
import CustomDump
import LockstepCasePaths
import LockstepTesting

extension TestStore where Action: CasePathable {
    /// Asserts that the side effects dispatched an action of the case `actionCase` names next,
    /// whatever its value, and the state right after its reducer.
    ///
    /// ```swift
    /// await store.receive(\.search.searchFinished) {
    ///     $0.search.isSearching = false
    ///     $0.search.results = ["Dune"]
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - actionCase: The case of the expected action; a key path through nested cases names
    ///     a case of a feature's action.
    ///   - updateStateToExpectedResult: Mutates the state before the action into the state
    ///     expected right after its reducer.
    ///   - fileID: The file a failure is reported in; defaults to the caller's.
    ///   - filePath: The file path a failure is reported in; defaults to the caller's.
    ///   - line: The line a failure is reported at; defaults to the caller's.
    ///   - column: The column a failure is reported at; defaults to the caller's.
    public func receive<Value>(
        _ actionCase: CaseKeyPath<Action, Value>,
        assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        await receive(
            { $0[case: actionCase] }, assert: updateStateToExpectedResult,
            fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Asserts that the side effects dispatched an action of the case `actionCase` names next,
    /// with the value `value`, and the state right after its reducer.
    ///
    /// ```swift
    /// await store.receive(\.search.searchFinished, ["Dune"]) {
    ///     $0.search.results = ["Dune"]
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - actionCase: The case of the expected action.
    ///   - value: The value the expected action carries.
    ///   - updateStateToExpectedResult: Mutates the state before the action into the state
    ///     expected right after its reducer.
    ///   - fileID: The file a failure is reported in; defaults to the caller's.
    ///   - filePath: The file path a failure is reported in; defaults to the caller's.
    ///   - line: The line a failure is reported at; defaults to the caller's.
    ///   - column: The column a failure is reported at; defaults to the caller's.
    public func receive<Value: Equatable>(
        _ actionCase: CaseKeyPath<Action, Value>,
        _ value: Value,
        assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        await receive(
            expecting: "an action of the expected case with \(describe(value))",
            matching: { $0[case: actionCase] == value },
            mismatch: { action in
                guard let received = action[case: actionCase] else {
                    return "Received an action of another case than expected:\n\n\(describe(action).indent(by: 2))"
                }
                return "Received an action of the expected case with another value:"
                    + describeDifference(expected: value, received: received)
            },
            updateStateToExpectedResult,
            at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    /// A test store of one feature whose actions are embedded in the case `action` names: it
    /// sends and receives the feature's actions and asserts the feature's part of the state.
    ///
    /// ```swift
    /// let search = store.scope(state: \.search, action: \.search)
    /// await search.send(.queryChanged("dune")) { $0.query = "dune" }
    /// ```
    ///
    /// - Parameters:
    ///   - state: The feature's part of the state.
    ///   - action: The case of the action that embeds the feature's actions.
    /// - Returns: A test store of the feature.
    public func scope<ChildState, ChildAction>(
        state: WritableKeyPath<State, ChildState>,
        action: CaseKeyPath<Action, ChildAction>
    ) -> ScopedTestStore<State, Action, ChildState, ChildAction> {
        ScopedTestStore(parent: self, state: state, embed: { action($0) }, extract: { $0[case: action] })
    }

    /// A test store of a presented feature, whose part of the state is optional and whose
    /// actions are embedded in the case `action` names: no force-unwrapped `\.child!` path.
    /// Its assertions unwrap the part, and fail when it is `nil`.
    ///
    /// ```swift
    /// let detail = store.scope(state: \.detail, action: \.detail)
    /// await detail.send(.titleChanged("Dune")) { $0.title = "Dune" }
    /// await detail.receive(\.saved)
    /// ```
    ///
    /// - Parameters:
    ///   - state: The feature's optional part of the state.
    ///   - action: The case of the action that embeds the feature's actions.
    /// - Returns: A test store of the presented feature.
    public func scope<ChildState, ChildAction>(
        state: WritableKeyPath<State, ChildState?>,
        action: CaseKeyPath<Action, ChildAction>
    ) -> ScopedTestStore<State, Action, ChildState, ChildAction> {
        ScopedTestStore(parent: self, optional: state, embed: { action($0) }, extract: { $0[case: action] })
    }
}

extension ScopedTestStore where ChildAction: CasePathable {
    /// Asserts that the side effects dispatched an action of this feature next, of the case
    /// `actionCase` names, whatever its value, and the feature's part of the state right after
    /// its reducer.
    ///
    /// ```swift
    /// let search = store.scope(state: \.search, action: \.search)
    /// await search.send(.queryChanged("dune")) { $0.query = "dune" }
    /// await search.receive(\.resultsLoaded) { $0.results = ["Dune"] }
    /// ```
    ///
    /// - Parameters:
    ///   - actionCase: The case of the feature's expected action.
    ///   - updateStateToExpectedResult: Mutates the feature's part into the part expected.
    ///   - fileID: The file a failure is reported in; defaults to the caller's.
    ///   - filePath: The file path a failure is reported in; defaults to the caller's.
    ///   - line: The line a failure is reported at; defaults to the caller's.
    ///   - column: The column a failure is reported at; defaults to the caller's.
    public func receive<Value>(
        _ actionCase: CaseKeyPath<ChildAction, Value>,
        assert updateStateToExpectedResult: ((_ state: inout ChildState) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        await receive(
            expecting: "an action of the feature's expected case",
            matching: { $0[case: actionCase] != nil },
            updateStateToExpectedResult,
            at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Asserts that the side effects dispatched an action of this feature next, of the case
    /// `actionCase` names with the value `value`, and the feature's part of the state right
    /// after its reducer.
    ///
    /// ```swift
    /// await search.receive(\.resultsLoaded, ["Dune"]) { $0.results = ["Dune"] }
    /// ```
    ///
    /// - Parameters:
    ///   - actionCase: The case of the feature's expected action.
    ///   - value: The value the expected action carries.
    ///   - updateStateToExpectedResult: Mutates the feature's part into the part expected.
    ///   - fileID: The file a failure is reported in; defaults to the caller's.
    ///   - filePath: The file path a failure is reported in; defaults to the caller's.
    ///   - line: The line a failure is reported at; defaults to the caller's.
    ///   - column: The column a failure is reported at; defaults to the caller's.
    public func receive<Value: Equatable>(
        _ actionCase: CaseKeyPath<ChildAction, Value>,
        _ value: Value,
        assert updateStateToExpectedResult: ((_ state: inout ChildState) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        await receive(
            expecting: "an action of the feature's expected case with \(describe(value))",
            matching: { $0[case: actionCase] == value },
            updateStateToExpectedResult,
            at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// A scoped test store of a part of this feature's part, whose actions are embedded in the
    /// case `action` names of this feature's action.
    ///
    /// - Parameters:
    ///   - state: The part of this feature's state.
    ///   - action: The case of this feature's action that embeds the inner feature's actions.
    /// - Returns: A test store of the inner feature.
    public func scope<GrandchildState, GrandchildAction>(
        state: WritableKeyPath<ChildState, GrandchildState>,
        action: CaseKeyPath<ChildAction, GrandchildAction>
    ) -> ScopedTestStore<State, Action, GrandchildState, GrandchildAction> {
        scope(state: state, embed: { action($0) }, extract: { $0[case: action] })
    }
}

extension TestStore where Action: CasePathable {
    /// Sends the action of the case `actionCase` with `value`, and asserts the state right after
    /// its reducer.
    ///
    /// ```swift
    /// await store.send(\.binding.title, "Standup") { $0.title = "Standup" }
    /// await store.send(\.todos[id: 1].toggled, true) { $0.todos[id: 1]?.isDone = true }
    /// ```
    ///
    /// - Parameters:
    ///   - actionCase: The case of the action; a key path through nested cases names a case of
    ///     a feature's action.
    ///   - value: The value the action carries.
    ///   - updateStateToExpectedResult: Mutates the state before the action into the state
    ///     expected right after its reducer.
    ///   - fileID: The file a failure is reported in; defaults to the caller's.
    ///   - filePath: The file path a failure is reported in; defaults to the caller's.
    ///   - line: The line a failure is reported at; defaults to the caller's.
    ///   - column: The column a failure is reported at; defaults to the caller's.
    /// - Returns: The work the action started, finished or parked on a test double.
    @discardableResult
    public func send<Value>(
        _ actionCase: CaseKeyPath<Action, Value>,
        _ value: Value,
        assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> TestStoreTask {
        await send(
            actionCase(value), assert: updateStateToExpectedResult,
            fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Sends the action of the case `actionCase`, a case without a value, and asserts the state
    /// right after its reducer.
    ///
    /// ```swift
    /// await store.send(\.search.clearTapped) { $0.search.query = "" }
    /// ```
    ///
    /// - Parameters:
    ///   - actionCase: The case of the action.
    ///   - updateStateToExpectedResult: Mutates the state before the action into the state
    ///     expected right after its reducer.
    ///   - fileID: The file a failure is reported in; defaults to the caller's.
    ///   - filePath: The file path a failure is reported in; defaults to the caller's.
    ///   - line: The line a failure is reported at; defaults to the caller's.
    ///   - column: The column a failure is reported at; defaults to the caller's.
    /// - Returns: The work the action started, finished or parked on a test double.
    @discardableResult
    public func send(
        _ actionCase: CaseKeyPath<Action, Void>,
        assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> TestStoreTask {
        await send(
            actionCase(()), assert: updateStateToExpectedResult,
            fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
