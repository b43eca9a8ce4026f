import Lockstep

extension TestStore {
    /// A test store of one feature: it sends and receives the feature's actions and asserts the
    /// feature's part of the state, through this test store.
    ///
    /// The feature is tested as the app runs it, with the app's reducer and middlewares, and every
    /// assertion reads like a test of the feature alone:
    ///
    /// ```swift
    /// let store = TestStore(state: AppState(), reducer: appReducer, services: services, middlewares: middlewares)
    /// let search = store.scope(state: \.search, action: AppAction.search)
    ///
    /// await search.send(.queryChanged("dune")) { $0.query = "dune" }
    /// await search.receive(.resultsLoaded(["Dune"])) { $0.results = ["Dune"] }
    /// ```
    ///
    /// The exhaustive checks stay the parent's: a change outside the feature's part, or an action
    /// of another feature, is still reported.
    ///
    /// - Parameters:
    ///   - state: The feature's part of the state.
    ///   - action: Embeds a feature action in an action of this store, usually the enum case.
    /// - Returns: A test store of the feature.
    public func scope<ChildState, ChildAction>(
        state: WritableKeyPath<State, ChildState>,
        action: @escaping (ChildAction) -> Action
    ) -> ScopedTestStore<State, Action, ChildState, ChildAction> {
        ScopedTestStore(parent: self, state: state, embed: action, extract: nil)
    }

    /// A test store of a presented feature, whose part of the state is optional: the assertions
    /// unwrap it, and fail when it is `nil`.
    ///
    /// ```swift
    /// let detail = store.scope(state: \.detail, action: AppAction.detail)
    /// await detail.send(.titleChanged("Dune")) { $0.title = "Dune" }
    /// ```
    ///
    /// - Parameters:
    ///   - state: The feature's optional part of the state.
    ///   - action: Embeds a feature action in an action of this store, usually the enum case.
    /// - Returns: A test store of the presented feature.
    public func scope<ChildState, ChildAction>(
        state: WritableKeyPath<State, ChildState?>,
        action: @escaping (ChildAction) -> Action
    ) -> ScopedTestStore<State, Action, ChildState, ChildAction> {
        ScopedTestStore(parent: self, optional: state, embed: action, extract: nil)
    }
}

/// A feature's view of a ``TestStore``: its part of the state and its own actions. Made by
/// `scope(state:action:)` of ``TestStore``.
///
/// `State` and `Action` are the parent test store's; `ChildState` is the feature's part of the
/// state and `ChildAction` the feature's action type.
///
/// ```swift
/// let store = TestStore(state: AppState(), reducer: appReducer, services: services, middlewares: middlewares)
/// let search: ScopedTestStore<AppState, AppAction, SearchState, SearchAction> =
///   store.scope(state: \.search, action: AppAction.search)
///
/// await search.send(.queryChanged("dune")) { $0.query = "dune" }
/// await search.receive(.resultsLoaded(["Dune"])) { $0.results = ["Dune"] }
/// #expect(search.state.results == ["Dune"])
/// ```
///
/// Exhaustivity, ``finish(fileID:filePath:line:column:)`` and the end-of-test checks are the
/// parent's: a scoped test store only names the feature's part and actions.
@MainActor
public struct ScopedTestStore<State: Equatable & Sendable, Action: Sendable, ChildState, ChildAction> {
    /// The test store the feature's actions go through.
    public let parent: TestStore<State, Action>
    private let read: (State) -> ChildState?
    /// Runs an assertion's closure on the feature's part of `state`; throws when it is absent.
    private let modify: (inout State, (inout ChildState) throws -> Void) throws -> Void
    private let embed: (ChildAction) -> Action
    /// Finds a feature action in an action of the parent, when the scope was made with a case
    /// key path (LockstepCasePathsTesting): what `receive` by a case of the feature's action
    /// needs.
    package let extract: ((Action) -> ChildAction?)?

    package init(
        parent: TestStore<State, Action>,
        state: WritableKeyPath<State, ChildState>,
        embed: @escaping (ChildAction) -> Action,
        extract: ((Action) -> ChildAction?)?
    ) {
        self.init(
            parent: parent, read: { $0[keyPath: state] }, modify: { parentState, update in try update(&parentState[keyPath: state]) },
            embed: embed, extract: extract)
    }

    package init(
        parent: TestStore<State, Action>,
        optional state: WritableKeyPath<State, ChildState?>,
        embed: @escaping (ChildAction) -> Action,
        extract: ((Action) -> ChildAction?)?
    ) {
        self.init(
            parent: parent, read: { $0[keyPath: state] },
            modify: { parentState, update in
                guard parentState[keyPath: state] != nil else { throw ChildNotPresent() }
                try update(&parentState[keyPath: state]!)
            },
            embed: embed, extract: extract)
    }

    private init(
        parent: TestStore<State, Action>,
        read: @escaping (State) -> ChildState?,
        modify: @escaping (inout State, (inout ChildState) throws -> Void) throws -> Void,
        embed: @escaping (ChildAction) -> Action,
        extract: ((Action) -> ChildAction?)?
    ) {
        self.parent = parent
        self.read = read
        self.modify = modify
        self.embed = embed
        self.extract = extract
    }

    /// The feature's part of the store's current state.
    ///
    /// For a presented feature that is not presented now, reading it stops the test: check
    /// ``isPresent`` first.
    public var state: ChildState {
        guard let state = read(parent.state) else {
            fatalError("The scoped test store's part of the state is nil: the feature is not presented now.")
        }
        return state
    }

    /// Whether the feature's part of the state is there: always for a part that is not optional;
    /// for a presented feature, while it is presented.
    ///
    /// ```swift
    /// await detail.send(.deleteConfirmed)
    /// #expect(!detail.isPresent)
    /// ```
    public var isPresent: Bool {
        read(parent.state) != nil
    }

    /// The parent's ``TestStore/exhaustivity``: a scoped test store checks what its parent does.
    public var exhaustivity: TestStore<State, Action>.Exhaustivity {
        get { parent.exhaustivity }
        nonmutating set { parent.exhaustivity = newValue }
    }

    /// Sends a feature action and asserts the feature's part of the state right after its
    /// reducer. See ``TestStore/send(_:assert:fileID:filePath:line:column:)``.
    ///
    /// - Parameters:
    ///   - action: The feature action.
    ///   - updateStateToExpectedResult: Mutates the feature's part before the action into the
    ///     part expected after its reducer.
    ///   - fileID: The file a failure is reported in; defaults to the caller's.
    ///   - filePath: The file path a failure is reported in; defaults to the caller's.
    ///   - line: The line a failure is reported at; defaults to the caller's.
    ///   - column: The column a failure is reported at; defaults to the caller's.
    /// - Returns: The work the action started.
    @discardableResult
    public func send(
        _ action: ChildAction,
        assert updateStateToExpectedResult: ((_ state: inout ChildState) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> TestStoreTask {
        await parent.send(
            embed(action), assert: lift(updateStateToExpectedResult),
            fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Asserts that the side effects dispatched `expectedAction` of this feature next, and the
    /// feature's part of the state right after its reducer.
    ///
    /// - Parameters:
    ///   - expectedAction: The feature action expected.
    ///   - updateStateToExpectedResult: Mutates the feature's part into the part expected.
    ///   - fileID: The file a failure is reported in; defaults to the caller's.
    ///   - filePath: The file path a failure is reported in; defaults to the caller's.
    ///   - line: The line a failure is reported at; defaults to the caller's.
    ///   - column: The column a failure is reported at; defaults to the caller's.
    public func receive(
        _ expectedAction: ChildAction,
        assert updateStateToExpectedResult: ((_ state: inout ChildState) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async where Action: Equatable {
        await parent.receive(
            embed(expectedAction), assert: lift(updateStateToExpectedResult),
            fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Asserts the feature's part of the current state, with no action. See
    /// ``TestStore/assert(_:fileID:filePath:line:column:)``.
    ///
    /// ```swift
    /// detail.assert { $0.title = "Dune" }
    /// ```
    ///
    /// - Parameters:
    ///   - updateStateToExpectedResult: Mutates a copy of the feature's part into the part
    ///     expected.
    ///   - fileID: The file a failure is reported in; defaults to the caller's.
    ///   - filePath: The file path a failure is reported in; defaults to the caller's.
    ///   - line: The line a failure is reported at; defaults to the caller's.
    ///   - column: The column a failure is reported at; defaults to the caller's.
    public func assert(
        _ updateStateToExpectedResult: @escaping (_ state: inout ChildState) throws -> Void,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let modify = self.modify
        parent.assert(
            { state in try modify(&state, updateStateToExpectedResult) },
            fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Waits until every piece of work the parent test store started has finished. See
    /// ``TestStore/finish(fileID:filePath:line:column:)``.
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
        await parent.finish(fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Asserts that the side effects dispatched an action of this feature next that `extract`
    /// finds a value in, and the feature's part of the state right after its reducer. With
    /// LockstepCasePathsTesting, a case key path of the feature's action does the same:
    /// `await detail.receive(\.saved)`.
    ///
    /// The scope must know how to find the feature's action in the parent's: make it with a
    /// case key path (LockstepCasePathsTesting's `scope(state:action:)`). A scope made with a
    /// closure reports the call.
    ///
    /// - Parameters:
    ///   - extract: Returns the payload of the expected case of the feature's action, or `nil`.
    ///   - updateStateToExpectedResult: Mutates the feature's part into the part expected.
    ///   - fileID: The file a failure is reported in; defaults to the caller's.
    ///   - filePath: The file path a failure is reported in; defaults to the caller's.
    ///   - line: The line a failure is reported at; defaults to the caller's.
    ///   - column: The column a failure is reported at; defaults to the caller's.
    public func receive<Value>(
        _ extract: @escaping (ChildAction) -> Value?,
        assert updateStateToExpectedResult: ((_ state: inout ChildState) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        await receive(
            expecting: "an action of the feature's expected case",
            matching: { extract($0) != nil },
            updateStateToExpectedResult,
            at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Asserts that the next received action is a feature action `isMatching` accepts: the
    /// receive by case of every form, LockstepCasePathsTesting's included.
    package func receive(
        expecting expectation: String,
        matching isMatching: @escaping (ChildAction) -> Bool,
        _ updateStateToExpectedResult: ((inout ChildState) throws -> Void)?,
        at location: SourceLocation
    ) async {
        guard let extract else {
            location.report("""
                receive by case needs a scoped test store made with a case key path of the \
                action (scope(state:action: \\.feature)), which finds the feature's action in the \
                store's.
                """)
            return
        }
        await parent.receive(
            expecting: expectation,
            matching: { action in extract(action).map(isMatching) ?? false },
            mismatch: { "Received an action other than \(expectation):\n\n\(describe($0).indent(by: 2))" },
            lift(updateStateToExpectedResult),
            at: location)
    }

    /// A scoped test store of a part of this feature's part.
    ///
    /// - Parameters:
    ///   - state: The part of this feature's state.
    ///   - action: Embeds the inner feature's action in this feature's action.
    /// - Returns: A test store of the inner feature.
    public func scope<GrandchildState, GrandchildAction>(
        state: WritableKeyPath<ChildState, GrandchildState>,
        action: @escaping (GrandchildAction) -> ChildAction
    ) -> ScopedTestStore<State, Action, GrandchildState, GrandchildAction> {
        scope(state: state, embed: action, extract: nil)
    }

    /// A scoped test store of a part of this feature's part, found in actions by `extract` too.
    package func scope<GrandchildState, GrandchildAction>(
        state: WritableKeyPath<ChildState, GrandchildState>,
        embed action: @escaping (GrandchildAction) -> ChildAction,
        extract inner: ((ChildAction) -> GrandchildAction?)?
    ) -> ScopedTestStore<State, Action, GrandchildState, GrandchildAction> {
        let (embed, read, modify, outer) = (self.embed, self.read, self.modify, self.extract)
        var extract: ((Action) -> GrandchildAction?)?
        if let outer, let inner {
            extract = { outer($0).flatMap(inner) }
        }
        return ScopedTestStore<State, Action, GrandchildState, GrandchildAction>(
            parent: parent,
            read: { read($0)?[keyPath: state] },
            modify: { parentState, update in try modify(&parentState) { try update(&$0[keyPath: state]) } },
            embed: { embed(action($0)) },
            extract: extract)
    }

    private func lift(
        _ update: ((inout ChildState) throws -> Void)?
    ) -> ((inout State) throws -> Void)? {
        guard let update else { return nil }
        let modify = self.modify
        return { state in try modify(&state, update) }
    }
}

/// Thrown by an assertion of a presented feature's part while the feature is not presented.
struct ChildNotPresent: Error, CustomStringConvertible {
    var description: String {
        "the feature's part of the state is nil (it is not presented)"
    }
}
