// The initializers that take a value-form reducer are `@inlinable`: the closure that turns it
// into the in-place reducer the store keeps, `{ $0 = reducer($0, $1) }`, is then specialized in
// the app's module for its state type. Built here, generically, it copied the state through value
// witnesses on every dispatch (about 150 instructions, counted with callgrind).
extension Store {
    /// Creates a store with services that its middlewares receive on every call.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The function that computes the next state for each action.
    ///   - services: The app's services (API clients, databases, clocks), handed to every
    ///     middleware call. Any `Sendable` value works; an app usually defines a container
    ///     struct.
    ///   - middlewares: The side effects, run concurrently after the reducer for every action.
    ///   - effects: Effects to run for the whole life of the store, as if registered with
    ///     ``register(_:)`` right away.
    ///   - observers: Observers of every reduction, for logging and recording.
    @inlinable
    public convenience init<Services: Sendable>(
        state: State,
        reducer: @escaping (_ state: State, _ action: Action) -> State,
        services: Services,
        middlewares: [Middleware<State, Action, Services>],
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = []
    ) {
        self.init(
            state: state, reducer: { $0 = reducer($0, $1) }, services: services, middlewares: middlewares,
            effects: effects, observers: observers)
    }

    /// Creates a store with services and a reducer that changes the state in place.
    ///
    /// An in-place reducer (``InPlaceReducer``) changes one element of a large collection
    /// without copying the collection:
    ///
    /// ```swift
    /// let store = Store(
    ///     state: AppState(),
    ///     reducer: { (state: inout AppState, action: AppAction) in
    ///         if case .toggle(let index) = action { state.todos[index].isDone.toggle() }
    ///     },
    ///     services: services,
    ///     middlewares: [syncMiddleware]
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The function that changes the state for each action, in place.
    ///   - services: The app's services, handed to every middleware call.
    ///   - middlewares: The side effects, run concurrently after the reducer for every action.
    ///   - effects: Effects to run for the whole life of the store.
    ///   - observers: Observers of every reduction, for logging and recording.
    public convenience init<Services: Sendable>(
        state: State,
        reducer: @escaping (_ state: inout State, _ action: Action) -> Void,
        services: Services,
        middlewares: [Middleware<State, Action, Services>],
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = []
    ) {
        self.init(
            initialState: state, reducer: reducer, sideEffects: BoundSideEffects(middlewares, services: services),
            effects: effects, observers: observers)
    }

    /// Creates a store whose middlewares need no services.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The function that computes the next state for each action.
    ///   - middlewares: The side effects, run concurrently after the reducer for every action.
    ///     Each receives the state, the action and a ``Dispatcher``.
    ///   - effects: Effects to run for the whole life of the store, as if registered with
    ///     ``register(_:)`` right away.
    ///   - observers: Observers of every reduction, for logging and recording.
    @inlinable
    public convenience init(
        state: State,
        reducer: @escaping (_ state: State, _ action: Action) -> State,
        middlewares: [PlainMiddleware<State, Action>] = [],
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = []
    ) {
        self.init(
            state: state, reducer: { $0 = reducer($0, $1) }, middlewares: middlewares,
            effects: effects, observers: observers)
    }

    /// Creates a store with a reducer that changes the state in place, and middlewares that
    /// need no services.
    ///
    /// ```swift
    /// let store = Store(state: Counter(), reducer: { (state: inout Counter, action: CounterAction) in
    ///     state.count += 1
    /// })
    /// ```
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The function that changes the state for each action, in place.
    ///   - middlewares: The side effects, run concurrently after the reducer for every action.
    ///   - effects: Effects to run for the whole life of the store.
    ///   - observers: Observers of every reduction, for logging and recording.
    public convenience init(
        state: State,
        reducer: @escaping (_ state: inout State, _ action: Action) -> Void,
        middlewares: [PlainMiddleware<State, Action>] = [],
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = []
    ) {
        self.init(
            initialState: state, reducer: reducer,
            middlewares: middlewares, effects: effects, observers: observers)
    }

    /// Creates a store with a reducer and no side effects.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The function that computes the next state for each action.
    @inlinable
    public convenience init(state: State, reducer: @escaping (_ state: State, _ action: Action) -> State) {
        self.init(state: state, reducer: { $0 = reducer($0, $1) })
    }

    /// Creates a store with an in-place reducer and no side effects.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The function that changes the state for each action, in place.
    public convenience init(state: State, reducer: @escaping (_ state: inout State, _ action: Action) -> Void) {
        self.init(initialState: state, reducer: reducer, middlewares: [], effects: [], observers: [])
    }
}

// The initializers whose side effects are composed in a ``SideEffectBuilder``.
extension Store {
    /// Creates a store with services, whose side effects are composed in a ``SideEffectBuilder``,
    /// as TCA composes reducers.
    ///
    /// ```swift
    /// let store = Store(state: AppState(), reducer: appReducer, services: services) {
    ///     analyticsMiddleware
    ///     scopeMiddleware(searchMiddleware, state: \.search, action: \.search, embed: AppAction.search)
    ///     ifLetMiddleware(detailMiddleware, state: \.detail, action: \.detail, embed: AppAction.detail)
    /// }
    /// ```
    ///
    /// A middleware lifted to a feature is called only for that feature's actions, which the
    /// store checks right after the reducer: an action that calls no middleware and reaches no
    /// effect returns from ``dispatch(_:)`` with no suspension.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The function that computes the next state for each action.
    ///   - services: The app's services, handed to every middleware call.
    ///   - effects: Effects to run for the whole life of the store, as if registered with
    ///     ``register(_:)`` right away.
    ///   - observers: Observers of every reduction, for logging and recording.
    ///   - sideEffects: The middlewares, plain or lifted to features, run concurrently after the
    ///     reducer.
    @inlinable
    public convenience init<Services: Sendable>(
        state: State,
        reducer: @escaping (_ state: State, _ action: Action) -> State,
        services: Services,
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = [],
        @SideEffectBuilder<State, Action, Services> sideEffects: () -> [SideEffect<State, Action, Services>]
    ) {
        self.init(
            state: state, reducer: { $0 = reducer($0, $1) }, services: services, effects: effects,
            observers: observers, sideEffects: sideEffects)
    }

    /// Creates a store with services and a reducer that changes the state in place, whose side
    /// effects are composed in a ``SideEffectBuilder``.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The function that changes the state for each action, in place.
    ///   - services: The app's services, handed to every middleware call.
    ///   - effects: Effects to run for the whole life of the store.
    ///   - observers: Observers of every reduction, for logging and recording.
    ///   - sideEffects: The middlewares, plain or lifted to features, run concurrently after the
    ///     reducer.
    public convenience init<Services: Sendable>(
        state: State,
        reducer: @escaping (_ state: inout State, _ action: Action) -> Void,
        services: Services,
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = [],
        @SideEffectBuilder<State, Action, Services> sideEffects: () -> [SideEffect<State, Action, Services>]
    ) {
        self.init(
            initialState: state, reducer: reducer, sideEffects: BoundSideEffects(sideEffects(), services: services),
            effects: effects, observers: observers)
    }

    /// Creates a store whose side effects, which need no services, are composed in a
    /// ``SideEffectBuilder``.
    ///
    /// ```swift
    /// let store = Store(state: AppState(), reducer: appReducer) {
    ///     scopeMiddleware(searchMiddleware, state: \.search, action: \.search, embed: AppAction.search)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The function that computes the next state for each action.
    ///   - effects: Effects to run for the whole life of the store.
    ///   - observers: Observers of every reduction, for logging and recording.
    ///   - sideEffects: The middlewares, plain or lifted to features, run concurrently after the
    ///     reducer.
    @inlinable
    public convenience init(
        state: State,
        reducer: @escaping (_ state: State, _ action: Action) -> State,
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = [],
        @SideEffectBuilder<State, Action, Void> sideEffects: () -> [SideEffect<State, Action, Void>]
    ) {
        self.init(
            state: state, reducer: { $0 = reducer($0, $1) }, services: (), effects: effects, observers: observers,
            sideEffects: sideEffects)
    }

    /// Creates a store with a reducer that changes the state in place, whose side effects, which
    /// need no services, are composed in a ``SideEffectBuilder``.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The function that changes the state for each action, in place.
    ///   - effects: Effects to run for the whole life of the store.
    ///   - observers: Observers of every reduction, for logging and recording.
    ///   - sideEffects: The middlewares, plain or lifted to features, run concurrently after the
    ///     reducer.
    public convenience init(
        state: State,
        reducer: @escaping (_ state: inout State, _ action: Action) -> Void,
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = [],
        @SideEffectBuilder<State, Action, Void> sideEffects: () -> [SideEffect<State, Action, Void>]
    ) {
        self.init(state: state, reducer: reducer, services: (), effects: effects, observers: observers, sideEffects: sideEffects)
    }
}
