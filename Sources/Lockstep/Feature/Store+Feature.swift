extension Store {
    /// Creates a store that runs a feature: its reducer, its children's, and all their side
    /// effects, which receive `services` (or the part of it each child was lifted with).
    ///
    /// ```swift
    /// let store = Store(state: AppState.login(LoginState()), feature: appFeature, services: services)
    /// ```
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - feature: The app's feature.
    ///   - services: The app's services.
    ///   - effects: Effects to run for the whole life of the store.
    ///   - observers: Observers of every reduction, for logging and recording.
    public convenience init<Services: Sendable>(
        state: State,
        feature: Feature<State, Action, Services>,
        services: Services,
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = []
    ) {
        self.init(
            state: state, reducer: feature.reducer, services: services, effects: effects, observers: observers,
            sideEffects: { feature.sideEffects })
    }

    /// Creates a store that runs a feature that needs no services.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - feature: The app's feature.
    ///   - effects: Effects to run for the whole life of the store.
    ///   - observers: Observers of every reduction, for logging and recording.
    public convenience init(
        state: State,
        feature: Feature<State, Action, Void>,
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = []
    ) {
        self.init(state: state, feature: feature, services: (), effects: effects, observers: observers)
    }
}

extension ActorStore {
    /// Creates an actor store that runs a feature off the main actor: its reducer, its
    /// children's, and all their side effects, which receive `services` (or the part of it each
    /// child was lifted with).
    ///
    /// ```swift
    /// let store = ActorStore(state: AppState(), feature: appFeature, services: services)
    /// ```
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - feature: The app's feature.
    ///   - services: The app's services.
    ///   - effects: Effects to run for the whole life of the store.
    ///   - observers: Observers of every reduction, for logging and recording.
    public init<Services: Sendable>(
        state: State,
        feature: Feature<State, Action, Services>,
        services: Services,
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = []
    ) {
        let sideEffects = feature.sideEffects
        self.init(
            state: state, reducer: feature.reducer, services: services, effects: effects, observers: observers,
            sideEffects: { sideEffects })
    }

    /// Creates an actor store that runs a feature that needs no services.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - feature: The app's feature.
    ///   - effects: Effects to run for the whole life of the store.
    ///   - observers: Observers of every reduction, for logging and recording.
    public init(
        state: State,
        feature: Feature<State, Action, Void>,
        effects: [Effect<Action>] = [],
        observers: [ActionObserver<State, Action>] = []
    ) {
        self.init(state: state, feature: feature, services: (), effects: effects, observers: observers)
    }
}
