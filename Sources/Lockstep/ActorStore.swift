/// A store isolated to an actor of its own, for command-line tools, servers and background
/// work that no user interface observes.
///
/// ``Store`` lives on the main actor so that a user interface can observe it, and pays for it:
/// on Linux every suspension that returns to the main actor goes through the main dispatch
/// queue, about 14 µs on the machines Lockstep is measured on. `ActorStore` keeps the same
/// reducers, middlewares and dispatch contract on an actor of its own, where the same
/// round trip costs about a microsecond:
///
/// ```swift
/// let store = ActorStore(
///     state: AppState(),
///     reducer: appReducer,
///     services: ServiceContainer(calendarService: calendar),
///     middlewares: [todayMiddleware]
/// )
/// await store.dispatch(action: .today(.loadShifts))
/// let shifts = await store.state.today.scheduledShifts
/// ```
///
/// The contract is ``Store``'s without phase 2: with no user interface to render a loading state,
/// the middlewares start right after the reducer. `await store.dispatch(action)` returns when
/// every middleware has returned, including every follow-up action they dispatched, to any
/// depth. Cancelling the dispatching task cancels the work it started; work started with
/// ``send(_:)`` is owned by the store and cancelled when the store is released, and the
/// ``Dispatcher`` a middleware receives holds the store weakly.
public actor ActorStore<State: Sendable, Action: Sendable> {
    /// The current state, changed only by the reducer.
    public var state: State { currentState }

    @usableFromInline var currentState: State

    @usableFromInline let reducer: InPlaceReducer<State, Action>
    @usableFromInline let middlewares: [BoundMiddleware<State, Action>]
    @usableFromInline lazy var dispatcher = Dispatcher<Action> { [weak self] action in
        // The strong reference lives only while the reducer runs, so a follow-up action's side
        // effects do not keep a released store alive.
        guard let run = await self?.reduce(action) else {
            reportDispatchToReleasedStore(action, storeType: "ActorStore")
            return
        }
        await run.runMiddlewares()
    }
    private let ownedTasks = OwnedTasks()

    /// Creates a store with services that its middlewares receive on every call.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The function that computes the next state for each action.
    ///   - services: The app's services, handed to every middleware call.
    ///   - middlewares: The side effects, run concurrently after the reducer for every action.
    public init<Services: Sendable>(
        state: State,
        reducer: @escaping Reducer<State, Action>,
        services: Services,
        middlewares: [Middleware<State, Action, Services>]
    ) {
        self.currentState = state
        self.reducer = inPlaceReducer(reducer)
        self.middlewares = bind(middlewares, to: services)
    }

    /// Creates a store with services and a reducer that changes the state in place.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The function that changes the state for each action, in place.
    ///   - services: The app's services, handed to every middleware call.
    ///   - middlewares: The side effects, run concurrently after the reducer for every action.
    public init<Services: Sendable>(
        state: State,
        reducer: @escaping InPlaceReducer<State, Action>,
        services: Services,
        middlewares: [Middleware<State, Action, Services>]
    ) {
        self.currentState = state
        self.reducer = reducer
        self.middlewares = bind(middlewares, to: services)
    }

    /// Creates a store whose middlewares need no services.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The function that computes the next state for each action.
    ///   - middlewares: The side effects, run concurrently after the reducer for every action.
    public init(
        state: State,
        reducer: @escaping Reducer<State, Action>,
        middlewares: [@Sendable (
            _ state: State,
            _ action: Action,
            _ dispatch: Dispatcher<Action>
        ) async -> Void] = []
    ) {
        self.currentState = state
        self.reducer = inPlaceReducer(reducer)
        self.middlewares = middlewares
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
    public init(
        state: State,
        reducer: @escaping InPlaceReducer<State, Action>,
        middlewares: [PlainMiddleware<State, Action>] = []
    ) {
        self.currentState = state
        self.reducer = reducer
        self.middlewares = middlewares
    }

    deinit {
        ownedTasks.cancelAll()
    }

    /// Dispatches `action` and returns when it and every side effect it caused are finished.
    ///
    /// - Parameter action: The action to reduce and hand to every middleware.
    @inlinable
    public func dispatch(_ action: Action) async {
        reducer(&currentState, action)
        if middlewares.isEmpty { return }
        await SideEffectRun(
            middlewares: middlewares,
            state: currentState,
            action: action,
            dispatcher: dispatcher
        ).runMiddlewares()
    }

    /// Dispatches `action` and returns when it and every side effect it caused are finished.
    ///
    /// - Parameter action: The action to reduce and hand to every middleware.
    @inlinable
    public func dispatch(action: Action) async {
        await dispatch(action)
    }

    /// Reduces `action` now and runs its side effects in a task the store owns, cancelled when
    /// the store is released.
    ///
    /// - Parameter action: The action to reduce and hand to every middleware.
    /// - Returns: The task that runs the action's side effects.
    @discardableResult
    public func send(_ action: Action) -> Task<Void, Never> {
        guard let run = reduce(action) else { return Task {} }
        return ownedTasks.start {
            await run.runMiddlewares()
        }
    }

    /// Applies the reducer, then returns the side effects still to run, or `nil` when the store
    /// has no middleware. The returned value holds no reference to the store.
    private func reduce(_ action: Action) -> SideEffectRun<State, Action>? {
        reducer(&currentState, action)
        if middlewares.isEmpty { return nil }
        return SideEffectRun(
            middlewares: middlewares,
            state: currentState,
            action: action,
            dispatcher: dispatcher
        )
    }
}
