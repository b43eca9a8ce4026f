import Lockstep

// The initializers with TCA's label, `initialState:`, beside `state:`: a test ported from TCA
// keeps its `TestStore(initialState: Feature.State(), reducer: …)`.
extension TestStore {
    /// Creates a test store over a store with an in-place reducer and middlewares that need no
    /// services, as `TestStore(state:reducer:)` does, with TCA's label.
    ///
    /// ```swift
    /// let store = TestStore(initialState: Counter(), reducer: counterReducer)
    /// ```
    ///
    /// - Parameters:
    ///   - initialState: The initial state.
    ///   - reducer: The app's reducer, changing the state in place.
    ///   - middlewares: The app's middlewares.
    ///   - effects: Effects to run for the life of the store.
    ///   - observers: Observers of every reduction.
    ///   - fileID: The file end-of-test failures are reported in; defaults to the caller's.
    ///   - filePath: The file path end-of-test failures are reported in; defaults to the caller's.
    ///   - line: The line end-of-test failures are reported at; defaults to the caller's.
    ///   - column: The column end-of-test failures are reported at; defaults to the caller's.
    public convenience init(
        initialState: State,
        reducer: @escaping (_ state: inout State, _ action: Action) -> Void,
        middlewares: [PlainMiddleware<State, Action>] = [],
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = [],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        self.init(
            state: initialState, reducer: reducer, middlewares: middlewares, effects: effects, observers: observers,
            fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Creates a test store over a store with a reducer that returns the next state and
    /// middlewares that need no services, with TCA's label.
    ///
    /// - Parameters:
    ///   - initialState: The initial state.
    ///   - reducer: The app's reducer.
    ///   - middlewares: The app's middlewares.
    ///   - effects: Effects to run for the life of the store.
    ///   - observers: Observers of every reduction.
    ///   - fileID: The file end-of-test failures are reported in; defaults to the caller's.
    ///   - filePath: The file path end-of-test failures are reported in; defaults to the caller's.
    ///   - line: The line end-of-test failures are reported at; defaults to the caller's.
    ///   - column: The column end-of-test failures are reported at; defaults to the caller's.
    public convenience init(
        initialState: State,
        reducer: @escaping (_ state: State, _ action: Action) -> State,
        middlewares: [PlainMiddleware<State, Action>] = [],
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = [],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        self.init(
            state: initialState, reducer: reducer, middlewares: middlewares, effects: effects, observers: observers,
            fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Creates a test store over a store with services and an in-place reducer, with TCA's
    /// label.
    ///
    /// - Parameters:
    ///   - initialState: The initial state.
    ///   - reducer: The app's reducer, changing the state in place.
    ///   - services: The services the middlewares receive, usually with test doubles.
    ///   - middlewares: The app's middlewares.
    ///   - effects: Effects to run for the life of the store.
    ///   - observers: Observers of every reduction.
    ///   - fileID: The file end-of-test failures are reported in; defaults to the caller's.
    ///   - filePath: The file path end-of-test failures are reported in; defaults to the caller's.
    ///   - line: The line end-of-test failures are reported at; defaults to the caller's.
    ///   - column: The column end-of-test failures are reported at; defaults to the caller's.
    public convenience init<Services: Sendable>(
        initialState: State,
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
        self.init(
            state: initialState, reducer: reducer, services: services, middlewares: middlewares, effects: effects,
            observers: observers, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Creates a test store with services and an in-place reducer, whose side effects are
    /// composed in a `SideEffectBuilder`, with TCA's label.
    ///
    /// ```swift
    /// let store = TestStore(initialState: AppState(), reducer: appReducer, services: .test) {
    ///     scopeMiddleware(searchMiddleware, state: \.search, action: \.search, embed: AppAction.search)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - initialState: The initial state.
    ///   - reducer: The function that changes the state for each action, in place.
    ///   - services: The services the middlewares receive, usually test doubles.
    ///   - effects: Effects to run for the whole life of the store.
    ///   - observers: Observers of every reduction.
    ///   - fileID: The file of the issue for work left running at the end of the test.
    ///   - filePath: The file path of that issue.
    ///   - line: The line of that issue.
    ///   - column: The column of that issue.
    ///   - sideEffects: The middlewares, plain or lifted to features.
    public convenience init<Services: Sendable>(
        initialState: State,
        reducer: @escaping (_ state: inout State, _ action: Action) -> Void,
        services: Services,
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = [],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        @SideEffectBuilder<State, Action, Services> sideEffects: () -> [SideEffect<State, Action, Services>]
    ) {
        self.init(
            state: initialState, reducer: reducer, services: services, effects: effects, observers: observers,
            fileID: fileID, filePath: filePath, line: line, column: column, sideEffects: sideEffects)
    }

    /// Creates a test store with an in-place reducer, whose side effects, which need no
    /// services, are composed in a `SideEffectBuilder`, with TCA's label.
    ///
    /// - Parameters:
    ///   - initialState: The initial state.
    ///   - reducer: The function that changes the state for each action, in place.
    ///   - effects: Effects to run for the whole life of the store.
    ///   - observers: Observers of every reduction.
    ///   - fileID: The file of the issue for work left running at the end of the test.
    ///   - filePath: The file path of that issue.
    ///   - line: The line of that issue.
    ///   - column: The column of that issue.
    ///   - sideEffects: The middlewares, plain or lifted to features.
    public convenience init(
        initialState: State,
        reducer: @escaping (_ state: inout State, _ action: Action) -> Void,
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = [],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        @SideEffectBuilder<State, Action, Void> sideEffects: () -> [SideEffect<State, Action, Void>]
    ) {
        self.init(
            state: initialState, reducer: reducer, effects: effects, observers: observers,
            fileID: fileID, filePath: filePath, line: line, column: column, sideEffects: sideEffects)
    }
}
