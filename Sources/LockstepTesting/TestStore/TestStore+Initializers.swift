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
