extension ActorStore {
    /// Creates a store with services that its middlewares receive on every call.
    ///
    /// ```swift
    /// let store = ActorStore(
    ///     state: AppState(),
    ///     reducer: appReducer,
    ///     services: ServiceContainer(calendarService: calendar),
    ///     middlewares: [todayMiddleware]
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The function that computes the next state for each action.
    ///   - services: The app's services, handed to every middleware call.
    ///   - middlewares: The side effects, run concurrently after the reducer for every action.
    ///   - effects: Effects to run for the whole life of the store, as if registered with
    ///     ``register(_:)`` right away.
    ///   - observers: Observers of every reduction, for logging and recording.
    @inlinable
    public init<Services: Sendable>(
        state: State,
        reducer: @escaping Reducer<State, Action>,
        services: Services,
        middlewares: [Middleware<State, Action, Services>],
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = []
    ) {
        self.init(
            state: state, reducer: inPlaceReducer(reducer), services: services, middlewares: middlewares,
            effects: effects, observers: observers)
    }

    /// Creates a store with services and a reducer that changes the state in place.
    ///
    /// ```swift
    /// let store = ActorStore(
    ///     state: AppState(),
    ///     reducer: { (state: inout AppState, action: AppAction) in state = appReducer(state, action) },
    ///     services: services,
    ///     middlewares: [todayMiddleware]
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
    public init<Services: Sendable>(
        state: State,
        reducer: @escaping InPlaceReducer<State, Action>,
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
    /// ```swift
    /// let store = ActorStore(state: Counter(), reducer: counterReducer, middlewares: [countdownMiddleware])
    /// ```
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The function that computes the next state for each action.
    ///   - middlewares: The side effects, run concurrently after the reducer for every action.
    ///   - effects: Effects to run for the whole life of the store.
    ///   - observers: Observers of every reduction, for logging and recording.
    @inlinable
    public init(
        state: State,
        reducer: @escaping Reducer<State, Action>,
        middlewares: [@Sendable (
            _ state: State,
            _ action: Action,
            _ dispatch: Dispatcher<Action>
        ) async -> Void] = [],
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = []
    ) {
        self.init(
            state: state, reducer: inPlaceReducer(reducer), middlewares: middlewares,
            effects: effects, observers: observers)
    }

    /// Creates a store with a reducer that changes the state in place, and middlewares that need
    /// no services.
    ///
    /// ```swift
    /// let store = ActorStore(state: Counter(), reducer: { (state: inout Counter, action: CounterAction) in
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
    public init(
        state: State,
        reducer: @escaping InPlaceReducer<State, Action>,
        middlewares: [PlainMiddleware<State, Action>] = [],
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = []
    ) {
        self.init(
            initialState: state, reducer: reducer,
            middlewares: middlewares, effects: effects, observers: observers)
    }
}

// The initializers whose side effects are composed in a ``SideEffectBuilder``.
extension ActorStore {
    /// Creates an actor store with services, whose side effects are composed in a
    /// ``SideEffectBuilder``, as TCA composes reducers.
    ///
    /// ```swift
    /// let store = ActorStore(state: AppState(), reducer: appReducer, services: services) {
    ///     scopeMiddleware(searchMiddleware, state: \.search, action: \.search, embed: AppAction.search)
    ///     ifLetMiddleware(detailMiddleware, state: \.detail, action: \.detail, embed: AppAction.detail)
    /// }
    /// ```
    ///
    /// A middleware lifted to a feature is called only for that feature's actions, which the
    /// store checks on its actor right after the reducer: an action that calls no middleware and
    /// reaches no effect schedules nothing.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The function that computes the next state for each action.
    ///   - services: The app's services, handed to every middleware call.
    ///   - effects: Effects to run for the whole life of the store.
    ///   - observers: Observers of every reduction, for logging and recording.
    ///   - sideEffects: The middlewares, plain or lifted to features, run concurrently after the
    ///     reducer.
    @inlinable
    public init<Services: Sendable>(
        state: State,
        reducer: @escaping Reducer<State, Action>,
        services: Services,
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = [],
        @SideEffectBuilder<State, Action, Services> sideEffects: @Sendable () -> [SideEffect<State, Action, Services>]
    ) {
        self.init(
            state: state, reducer: inPlaceReducer(reducer), services: services, effects: effects,
            observers: observers, sideEffects: sideEffects)
    }

    /// Creates an actor store with services and a reducer that changes the state in place, whose
    /// side effects are composed in a ``SideEffectBuilder``.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The function that changes the state for each action, in place.
    ///   - services: The app's services, handed to every middleware call.
    ///   - effects: Effects to run for the whole life of the store.
    ///   - observers: Observers of every reduction, for logging and recording.
    ///   - sideEffects: The middlewares, plain or lifted to features, run concurrently after the
    ///     reducer.
    public init<Services: Sendable>(
        state: State,
        reducer: @escaping InPlaceReducer<State, Action>,
        services: Services,
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = [],
        @SideEffectBuilder<State, Action, Services> sideEffects: @Sendable () -> [SideEffect<State, Action, Services>]
    ) {
        self.init(
            initialState: state, reducer: reducer, sideEffects: BoundSideEffects(sideEffects(), services: services),
            effects: effects, observers: observers)
    }

    /// Creates an actor store whose side effects, which need no services, are composed in a
    /// ``SideEffectBuilder``.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The function that computes the next state for each action.
    ///   - effects: Effects to run for the whole life of the store.
    ///   - observers: Observers of every reduction, for logging and recording.
    ///   - sideEffects: The middlewares, plain or lifted to features, run concurrently after the
    ///     reducer.
    @inlinable
    public init(
        state: State,
        reducer: @escaping Reducer<State, Action>,
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = [],
        @SideEffectBuilder<State, Action, Void> sideEffects: @Sendable () -> [SideEffect<State, Action, Void>]
    ) {
        self.init(
            state: state, reducer: inPlaceReducer(reducer), services: (), effects: effects, observers: observers,
            sideEffects: sideEffects)
    }

    /// Creates an actor store with a reducer that changes the state in place, whose side effects,
    /// which need no services, are composed in a ``SideEffectBuilder``.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The function that changes the state for each action, in place.
    ///   - effects: Effects to run for the whole life of the store.
    ///   - observers: Observers of every reduction, for logging and recording.
    ///   - sideEffects: The middlewares, plain or lifted to features, run concurrently after the
    ///     reducer.
    public init(
        state: State,
        reducer: @escaping InPlaceReducer<State, Action>,
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = [],
        @SideEffectBuilder<State, Action, Void> sideEffects: @Sendable () -> [SideEffect<State, Action, Void>]
    ) {
        self.init(state: state, reducer: reducer, services: (), effects: effects, observers: observers, sideEffects: sideEffects)
    }
}
