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
        ScopedTestStore(parent: self, state: state, embed: action)
    }
}

/// A feature's view of a ``TestStore``: its part of the state and its own actions. Made by
/// ``TestStore/scope(state:action:)``.
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
@MainActor
public struct ScopedTestStore<State: Equatable & Sendable, Action: Sendable, ChildState, ChildAction> {
    /// The test store the feature's actions go through.
    public let parent: TestStore<State, Action>
    private let statePath: WritableKeyPath<State, ChildState>
    private let embed: (ChildAction) -> Action

    init(parent: TestStore<State, Action>, state: WritableKeyPath<State, ChildState>, embed: @escaping (ChildAction) -> Action) {
        self.parent = parent
        self.statePath = state
        self.embed = embed
    }

    /// The feature's part of the store's current state.
    public var state: ChildState { parent.state[keyPath: statePath] }

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
        let embed = self.embed
        return ScopedTestStore<State, Action, GrandchildState, GrandchildAction>(
            parent: parent, state: statePath.appending(path: state), embed: { embed(action($0)) })
    }

    private func lift(
        _ update: ((inout ChildState) throws -> Void)?
    ) -> ((inout State) throws -> Void)? {
        guard let update else { return nil }
        let statePath = self.statePath
        return { state in try update(&state[keyPath: statePath]) }
    }
}
