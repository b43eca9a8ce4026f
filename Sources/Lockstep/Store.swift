import Observation

/// The single source of truth of an app: its state, the reducer that changes it and the
/// middleware that performs its side effects.
///
/// A store is created once, with the app's services:
///
/// ```swift
/// let store = Store(
///     state: AppState(),
///     reducer: appReducer,
///     services: ServiceContainer(calendarService: calendar),
///     middlewares: [todayMiddleware]
/// )
/// ```
///
/// and every change goes through ``dispatch(_:)``:
///
/// ```swift
/// await store.dispatch(action: .today(.loadShifts))
/// ```
///
/// ## The dispatch contract
///
/// `await store.dispatch(action)` runs three phases:
///
/// 1. The reducer, synchronously on the main actor. Observers of ``state`` are notified of the
///    new state.
/// 2. A yield of the main actor, so that a user interface renders that state (a loading
///    indicator, an optimistic update) before any side effect starts.
/// 3. Every middleware, concurrently.
///
/// It returns when every middleware has returned, including every action they dispatched
/// through their ``Dispatcher`` and that action's own middleware, to any depth. "Dispatch
/// returned" therefore means "this action and everything it caused are finished", which is what
/// lets a test assert right after `await store.dispatch(...)` with no sleep. A dispatch that no
/// middleware can react to, because the store has none, skips phases 2 and 3 entirely.
///
/// ## Cancellation and lifetime
///
/// Side effects run in the task that awaits the dispatch, so cancelling that task cancels every
/// middleware it started, and the follow-up dispatches they make. Work that never finishes on its
/// own (a notification stream, a timer) is stopped this way.
///
/// Work the store starts on its own behalf with ``send(_:)`` is owned by the store and cancelled
/// when the store is released. Nothing the store hands out holds it strongly: dispatchers keep a
/// weak reference, so a middleware that runs forever does not keep a released store alive.
@MainActor
@Observable
public final class Store<State: Sendable, Action: Sendable> {
    /// The current state.
    ///
    /// Changed only by the reducer, in phase 1 of ``dispatch(_:)``. Reading it inside
    /// `withObservationTracking` (or from a SwiftUI view) registers an observation that fires on
    /// the next change.
    public private(set) var state: State

    @ObservationIgnored
    private let reducer: (State, Action) -> State

    @ObservationIgnored
    private let middlewares: [BoundMiddleware<State, Action>]

    @ObservationIgnored
    private let ownedTasks = OwnedTasks()

    @ObservationIgnored
    private var dispatcher: Dispatcher<Action> = Dispatcher { _ in }

    /// Creates a store with services that its middlewares receive on every call.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The function that computes the next state for each action.
    ///   - services: The app's services (API clients, databases, clocks), handed to every
    ///     middleware call. Any `Sendable` value works; an app usually defines a container
    ///     struct.
    ///   - middlewares: The side effects, run concurrently after the reducer for every action.
    public init<Services: Sendable>(
        state: State,
        reducer: @escaping (_ state: State, _ action: Action) -> State,
        services: Services,
        middlewares: [Middleware<State, Action, Services>]
    ) {
        self.state = state
        self.reducer = reducer
        self.middlewares = middlewares.map { middleware in
            { state, action, dispatch in
                await middleware(state, action, services, dispatch)
            }
        }
        self.dispatcher = makeDispatcher()
    }

    /// Creates a store whose middlewares need no services.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The function that computes the next state for each action.
    ///   - middlewares: The side effects, run concurrently after the reducer for every action.
    ///     Each receives the state, the action and a ``Dispatcher``.
    public init(
        state: State,
        reducer: @escaping (_ state: State, _ action: Action) -> State,
        middlewares: [@Sendable (
            _ state: State,
            _ action: Action,
            _ dispatch: Dispatcher<Action>
        ) async -> Void]
    ) {
        self.state = state
        self.reducer = reducer
        self.middlewares = middlewares
        self.dispatcher = makeDispatcher()
    }

    /// Creates a store with a reducer and no side effects.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - reducer: The function that computes the next state for each action.
    public convenience init(state: State, reducer: @escaping (_ state: State, _ action: Action) -> State) {
        self.init(state: state, reducer: reducer, middlewares: [])
    }

    deinit {
        ownedTasks.cancelAll()
    }

    /// Dispatches `action` and returns when it and every side effect it caused are finished.
    ///
    /// See the dispatch contract in ``Store``.
    ///
    /// - Parameter action: The action to reduce and hand to every middleware.
    public func dispatch(_ action: Action) async {
        guard let run = reduce(action) else { return }
        await run.perform()
    }

    /// Dispatches `action` and returns when it and every side effect it caused are finished.
    ///
    /// The same as ``dispatch(_:)``, spelled as in the seed apps:
    /// `await store.dispatch(action: .today(.loadShifts))`.
    ///
    /// - Parameter action: The action to reduce and hand to every middleware.
    public func dispatch(action: Action) async {
        await dispatch(action)
    }

    /// Reduces `action` now and runs its side effects in a task the store owns.
    ///
    /// Use it where there is no async context to await ``dispatch(_:)`` in, such as a button's
    /// action. Unlike `Task { await store.dispatch(action) }`, which keeps the store alive until
    /// the side effects finish, the task that `send` starts is cancelled when the store is
    /// released. The reducer has run when `send` returns; await the returned task's `value` to
    /// know when the side effects are finished, or cancel it to stop them.
    ///
    /// - Parameter action: The action to reduce and hand to every middleware.
    /// - Returns: The task that runs the action's side effects.
    @discardableResult
    public func send(_ action: Action) -> Task<Void, Never> {
        guard let run = reduce(action) else { return Task {} }
        let ownedTasks = self.ownedTasks
        let id = ownedTasks.reserveID()
        let task = Task {
            await run.perform()
            ownedTasks.remove(id: id)
        }
        ownedTasks.insert(task, id: id)
        return task
    }

    /// Phase 1: applies the reducer, then returns the side effects to run, or `nil` when the
    /// store has no middleware. The returned value holds no reference to the store.
    private func reduce(_ action: Action) -> SideEffectRun<State, Action>? {
        let newState = reducer(state, action)
        state = newState
        guard !middlewares.isEmpty else { return nil }
        return SideEffectRun(
            middlewares: middlewares,
            state: newState,
            action: action,
            dispatcher: dispatcher
        )
    }

    private func makeDispatcher() -> Dispatcher<Action> {
        Dispatcher { @MainActor [weak self] action in
            // The strong reference lives only for phase 1, so a follow-up action's side effects
            // do not keep a released store alive either.
            guard let run = self?.reduce(action) else { return }
            await run.perform()
        }
    }
}
