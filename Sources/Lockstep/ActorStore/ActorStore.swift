/// A store isolated to an actor of its own, for command-line tools, servers and background
/// work that no user interface observes.
///
/// ``Store`` lives on the main actor so that a user interface can observe it, and pays for it:
/// on Linux every suspension that returns to the main actor goes through the main dispatch
/// queue, about 14 µs on the machines Lockstep is measured on. `ActorStore` keeps the same
/// reducers, middlewares, effects, observers and dispatch contract on an actor of its own, where
/// the same round trip costs about a microsecond:
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
/// depth, and when every registered ``Effect`` has finished reacting to them. Cancelling the
/// dispatching task cancels the work it started; work started with ``send(_:)`` is owned by the
/// store and cancelled when the store is released, and the ``Dispatcher`` a middleware receives
/// holds the store weakly.
///
/// Besides dispatch, it has what ``Store`` has apart from the user interface: effects
/// (``register(_:)`` and `effects:`), their ``failures``, observers of every reduction
/// (`observers:`, called on the store's actor when made with
/// ``ActionObserver/nonisolated(isEnabled:_:)``, and on the main actor otherwise), and the state
/// over time as asynchronous sequences (`select(_:bufferingPolicy:)` and
/// ``ActorStoreProtocol/states(bufferingPolicy:)``):
///
/// ```swift
/// let store = ActorStore(
///     state: Counter(),
///     reducer: counterReducer,
///     effects: [countdown],
///     observers: [.logging(to: logger)]
/// )
/// for await value in store.select(\.value) { print(value) }
/// ```
///
/// Observers of the main actor see every reduction, in order, and at most 64 reductions wait for
/// a busy main actor: a reducer that would make more waits, on the store's actor, until the main
/// actor has handed one on.
///
/// ## Features
///
/// A feature's code gets a child store of its own part of the state and its own actions, as
/// with ``Store``, through ``ActorStoreProtocol/scope(state:action:)``; it dispatches through the
/// store, and code written against ``ActorStoreProtocol`` runs on the store and on its child
/// stores alike:
///
/// ```swift
/// let search = store.scope(state: \.search, action: AppAction.search)
/// await search.dispatch(.queryChanged("dune"))
/// let results = await search.state.results
/// ```
///
/// ## What it does not have
///
/// It does not conform to ``StoreProtocol``, and its child stores are ``ActorChildStore``s, not
/// ``ChildStore``s. That protocol is isolated to the main actor because a view reads `state`
/// synchronously while it renders, and a view model calls `send` from a button's action; the
/// state of an actor can only be read with `await`, from outside it. ``ActorStoreProtocol`` is
/// its counterpart for stores on an actor.
public actor ActorStore<State: Sendable, Action: Sendable> {
    /// The current state, changed only by the reducer.
    public var state: State { currentState }

    /// The most recent failures of the store's effects, oldest first (at most 100).
    ///
    /// An effect whose pipeline throws is stopped and reported here; the store and its other
    /// effects keep working.
    ///
    /// ```swift
    /// for failure in await store.failures { print(failure.effect, failure.error) }
    /// ```
    public var failures: [EffectFailure<String>] { recordedFailures }

    @usableFromInline var currentState: State
    var recordedFailures: [EffectFailure<String>] = []

    @usableFromInline let reducer: InPlaceReducer<State, Action>
    @usableFromInline let middlewares: [BoundMiddleware<State, Action>]
    /// The middlewares called by one function, when every one is called for every action and
    /// they take services.
    @usableFromInline let chain: MiddlewareChain<State, Action>?
    /// The side effects of a ``SideEffectBuilder`` with lifted middlewares, which select the
    /// middlewares an action calls; `nil` when every middleware is called for every action.
    let selectedSideEffects: BoundSideEffects<State, Action>?
    /// Whether `selectedSideEffects` is set, read inline by the dispatch.
    @usableFromInline let selectsSideEffects: Bool
    /// The running effects.
    @usableFromInline let effects = EffectHost<Action>()
    /// The observers of every reduction, and where each runs.
    let observers: ActorStoreObservers<State, Action>
    /// The number of the last action reduced (counted only in stores with observers), and
    /// whether an observer saw it.
    var sequenceNumber = 0
    var wasObserved = false
    /// The consumers of `select` and `states`, each fed the state after every reduction.
    let selectionFeeds = SelectionFeeds<State>()
    /// Whether a selection may be fed: set when one is attached, cleared by a reduction that
    /// finds none left.
    var hasSelectionFeeds = false
    /// Whether a reduction has anyone to tell: an observer or a consumer of the state. Without
    /// one, the reducer is all a dispatch does before its side effects.
    @usableFromInline var hasListeners: Bool
    /// The initial state, until the lifts among the side effects are first asked about an
    /// action: they are told of it first, so that a case lift knows its case was there before
    /// the first action (as a `Store` tells them when it is made; an actor's initializer cannot
    /// reach its dispatcher).
    private var stateBeforeFirstSelection: State?
    /// The in-flight work that middlewares started under a cancellation id.
    let cancellations = Cancellations()
    // With a context, an action a middleware dispatches is reduced, and its side effects run,
    // inside the store's context, not inside whatever the middleware changed for its own work.
    @usableFromInline lazy var dispatcher = Dispatcher<Action>(
        cancellations: cancellations,
        readState: { [weak self] in await self?.currentState },
        reduceReporting: { [weak self, context] action, check, reporting in
            guard check != nil || !Task.isCancelled else { return .dropped }
            let reduceAndRun = { [weak self] () async -> ReducerReport in
                guard let (run, report) = await self?.reduceReporting(action, check: check, reporting: reporting) else {
                    reportDispatchToReleasedStore(action, storeType: "ActorStore")
                    return .dropped
                }
                await run?.perform(yielding: false)
                return report
            }
            guard let context else { return await reduceAndRun() }
            var report = ReducerReport.dropped
            await context.run(isolation: nil) { report = await reduceAndRun() }
            return report
        }
    ) { [weak self, context] action in
        // Cancelled work dispatches nothing: checked here first, so that it neither hops to the
        // actor nor holds the store for the hop (a store released while cancelled work winds
        // down is freed at once), and again on the actor, right before the reducer.
        guard !Task.isCancelled else {
            reportDropAfterSelfCancellation(action)
            return
        }
        if let context {
            await context.run(isolation: nil) {
                guard let run = await self?.reduceUnlessCancelled(action) else {
                    reportDispatchToReleasedStore(action, storeType: "ActorStore")
                    return
                }
                await run.perform(yielding: false)
            }
            return
        }
        // The strong reference lives only while the reducer runs, so a follow-up action's side
        // effects do not keep a released store alive.
        // A store whose middleware dispatches has side effects to run, so `nil` means "released"
        // or "cancelled", and the report is silent for the latter.
        guard let run = await self?.reduceUnlessCancelled(action) else {
            reportDispatchToReleasedStore(action, storeType: "ActorStore")
            return
        }
        await run.perform(yielding: false)
    }
    let ownedTasks = OwnedTasks()
    /// Whether the store was made inside `withTrackedWork`, whose scope then sees its work (see
    /// ``SideEffectRun/isTracked``).
    @usableFromInline let isTracked: Bool
    /// What the store applies around everything it runs (see ``StoreContext``); `nil` unless it
    /// was made inside ``StoreContexts/forNewStores``.
    @usableFromInline package nonisolated let context: (any StoreContext)? = StoreContexts.forNewStores

    init(
        initialState: State,
        reducer: @escaping InPlaceReducer<State, Action>,
        middlewares: [BoundMiddleware<State, Action>],
        effects: [Effect<Action>],
        observers: [ActionObserver<State, Action>]
    ) {
        self.init(
            initialState: initialState, reducer: reducer, sideEffects: BoundSideEffects(middlewares), effects: effects,
            observers: observers)
    }

    /// `startingMainActorDrain`, for tests, starts the drain of the main actor's observers in
    /// place of a task of the main actor (see ``MainActorRelay``).
    package init(
        initialState: State,
        reducer: @escaping InPlaceReducer<State, Action>,
        sideEffects: BoundSideEffects<State, Action>,
        effects: [Effect<Action>],
        observers: [ActionObserver<State, Action>],
        startingMainActorDrain: (@Sendable (_ drain: @escaping @MainActor @Sendable () -> Void) -> Void)? = nil
    ) {
        self.currentState = initialState
        self.reducer = reducer
        self.middlewares = sideEffects.middlewares
        self.chain = sideEffects.chain
        self.selectedSideEffects = sideEffects.selectors == nil ? nil : sideEffects
        self.selectsSideEffects = sideEffects.selectors != nil
        self.stateBeforeFirstSelection = sideEffects.selectors == nil ? nil : initialState
        self.observers = ActorStoreObservers(observers, startDrain: startingMainActorDrain)
        self.hasListeners = !self.observers.isEmpty
        let scope = WorkTracking.scope
        self.isTracked = scope != nil
        self.effects.workScope = scope
        for effect in effects {
            _ = start(effect)
        }
    }

    deinit {
        ownedTasks.cancelAll()
        // Ends every `select` and `states` sequence.
        selectionFeeds.close()
    }

    /// Dispatches `action` and returns when it and every side effect it caused are finished.
    ///
    /// ```swift
    /// await store.dispatch(.increment)
    /// ```
    ///
    /// - Parameter action: The action to reduce and hand to every middleware and effect.
    @inlinable
    public func dispatch(_ action: Action) async {
        if let context {
            await dispatch(action, in: context)
            return
        }
        await dispatchWithoutContext(action)
    }

    /// A dispatch run inside the store's context, out of line so that a store with none keeps
    /// the short path.
    @usableFromInline
    func dispatch(_ action: Action, in context: any StoreContext) async {
        await context.run(isolation: self) {
            await dispatchWithoutContext(action)
        }
    }

    @inlinable
    func dispatchWithoutContext(_ action: Action) async {
        guard !hasListeners, !effects.hasEffects else {
            await reduceAndRunSideEffects(action)
            return
        }
        reducer(&currentState, action)
        if middlewares.isEmpty { return }
        if selectsSideEffects {
            await runSelectedMiddlewares(of: action)
            return
        }
        var run = SideEffectRun(
            middlewares: middlewares, state: currentState, action: action, dispatcher: dispatcher, isTracked: isTracked)
        run.chain = chain
        if middlewares.count == 1 {
            await run.runMiddlewares()
        } else {
            await run.runMiddlewaresOffActor()
        }
    }

    /// The middlewares that the lifted ones of a ``SideEffectBuilder`` select for `action`, whose
    /// reducer has run, for a dispatch with no observer, consumer of the state or effect: none
    /// called and nothing scheduled when none is selected.
    @usableFromInline
    func runSelectedMiddlewares(of action: Action) async {
        guard let selectedSideEffects else { return }
        recordInitialPresenceOnce(in: selectedSideEffects)
        let (selected, positions) = selectedSideEffects.selected(
            state: currentState, action: action, dispatcher: dispatcher)
        if selected.isEmpty { return }
        let run = SideEffectRun(
            middlewares: selected, state: currentState, action: action, dispatcher: dispatcher, isTracked: isTracked,
            positions: positions)
        if selected.count == 1 {
            await run.call(0)
        } else {
            await run.runMiddlewaresOffActor()
        }
    }

    /// Tells the lifts among the side effects of the initial state, before the first action
    /// they are asked about.
    func recordInitialPresenceOnce(in sideEffects: BoundSideEffects<State, Action>) {
        guard let initialState = stateBeforeFirstSelection else { return }
        stateBeforeFirstSelection = nil
        sideEffects.recordInitialPresence(state: initialState, dispatcher: dispatcher)
    }

    /// A dispatch in a store with observers, consumers of its state or effects. It waits first
    /// while the main actor's observers are ``MainActorRelay/capacity`` reductions behind.
    @usableFromInline
    func reduceAndRunSideEffects(_ action: Action) async {
        await observers.waitForRoom()
        await reduce(action)?.perform(yielding: false)
    }

    /// Dispatches `action` and returns when it and every side effect it caused are finished.
    ///
    /// The same as ``dispatch(_:)``, spelled as ``Store/dispatch(action:)``:
    ///
    /// ```swift
    /// await store.dispatch(action: .today(.loadShifts))
    /// ```
    ///
    /// - Parameter action: The action to reduce and hand to every middleware and effect.
    @inlinable
    public func dispatch(action: Action) async {
        await dispatch(action)
    }

    /// Reduces `action` and runs its side effects in a task the store owns, cancelled when the
    /// store is released.
    ///
    /// ```swift
    /// let sideEffects = await store.send(.startListening)
    /// sideEffects.cancel()
    /// ```
    ///
    /// It returns once the reducer has run, without waiting for the side effects. The reducer
    /// runs at once, unless observers of the main actor are 64 reductions behind a busy main
    /// actor: then it runs as soon as they have caught up on one, as a ``dispatch(_:)`` does.
    ///
    /// - Parameter action: The action to reduce and hand to every middleware and effect.
    /// - Returns: The task that runs the action's side effects.
    @discardableResult
    public func send(_ action: Action) async -> Task<Void, Never> {
        guard let context else { return await sendWithoutContext(action) }
        var task: Task<Void, Never>?
        // The task inherits the context's task-locals, as it is started inside it.
        await context.run(isolation: self) { task = await sendWithoutContext(action) }
        return task ?? Task {}
    }

    private func sendWithoutContext(_ action: Action) async -> Task<Void, Never> {
        await observers.waitForRoom()
        guard let run = reduce(action) else { return Task {} }
        return ownedTasks.start {
            await run.perform(yielding: false)
        }
    }
}
