import CustomDump
import IssueReporting
import Lockstep

extension TestStore {
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
        middlewares: [PlainMiddleware<State, Action>] = [],
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
        // Binds the services into each middleware, as `Store` does, so that one initializer
        // builds the store for all four forms.
        self.init(
            state: state, reducer: reducer, middlewares: bind(middlewares, to: services),
            effects: effects, observers: observers, fileID: fileID, filePath: filePath, line: line, column: column)
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
}

// The initializers whose side effects are composed in a `SideEffectBuilder`, as `Store`'s are.
extension TestStore {
    /// Creates a test store with services, whose side effects are composed in a
    /// `SideEffectBuilder`, as the app's `Store` is.
    ///
    /// ```swift
    /// let store = TestStore(state: AppState(), reducer: appReducer, services: .test) {
    ///     scopeMiddleware(searchMiddleware, state: \.search, action: \.search, embed: AppAction.search)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The function that computes the next state for each action.
    ///   - services: The services the middlewares receive, usually test doubles.
    ///   - effects: Effects to run for the whole life of the store.
    ///   - observers: Observers of every reduction.
    ///   - fileID: The file of the issue for work left running at the end of the test.
    ///   - filePath: The file path of that issue.
    ///   - line: The line of that issue.
    ///   - column: The column of that issue.
    ///   - sideEffects: The middlewares, plain or lifted to features.
    public convenience init<Services: Sendable>(
        state: State,
        reducer: @escaping (_ state: State, _ action: Action) -> State,
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
            state: state, reducer: { $0 = reducer($0, $1) }, services: services, effects: effects,
            observers: observers, fileID: fileID, filePath: filePath, line: line, column: column,
            sideEffects: sideEffects)
    }

    /// Creates a test store with services and a reducer that changes the state in place, whose
    /// side effects are composed in a `SideEffectBuilder`.
    ///
    /// - Parameters:
    ///   - state: The initial state.
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
        state: State,
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
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let statements = BoundSideEffects(sideEffects(), services: services)
        self.init(effects: effects, location: location) { sinkObserver in
            Store(
                initialState: state, reducer: reducer, sideEffects: statements, effects: [],
                observers: observers + [sinkObserver])
        }
    }

    /// Creates a test store whose side effects, which need no services, are composed in a
    /// `SideEffectBuilder`.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The function that computes the next state for each action.
    ///   - effects: Effects to run for the whole life of the store.
    ///   - observers: Observers of every reduction.
    ///   - fileID: The file of the issue for work left running at the end of the test.
    ///   - filePath: The file path of that issue.
    ///   - line: The line of that issue.
    ///   - column: The column of that issue.
    ///   - sideEffects: The middlewares, plain or lifted to features.
    public convenience init(
        state: State,
        reducer: @escaping (_ state: State, _ action: Action) -> State,
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = [],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        @SideEffectBuilder<State, Action, Void> sideEffects: () -> [SideEffect<State, Action, Void>]
    ) {
        self.init(
            state: state, reducer: { $0 = reducer($0, $1) }, services: (), effects: effects, observers: observers,
            fileID: fileID, filePath: filePath, line: line, column: column, sideEffects: sideEffects)
    }

    /// Creates a test store with a reducer that changes the state in place, whose side effects,
    /// which need no services, are composed in a `SideEffectBuilder`.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The function that changes the state for each action, in place.
    ///   - effects: Effects to run for the whole life of the store.
    ///   - observers: Observers of every reduction.
    ///   - fileID: The file of the issue for work left running at the end of the test.
    ///   - filePath: The file path of that issue.
    ///   - line: The line of that issue.
    ///   - column: The column of that issue.
    ///   - sideEffects: The middlewares, plain or lifted to features.
    public convenience init(
        state: State,
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
            state: state, reducer: reducer, services: (), effects: effects, observers: observers, fileID: fileID,
            filePath: filePath, line: line, column: column, sideEffects: sideEffects)
    }
}
