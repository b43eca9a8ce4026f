/// A feature as one value: its reducer and its side effects, lifted to a parent together.
///
/// A feature is written once and lifted once, as TCA's `Scope` and `ifLet` lift a reducer and
/// the effects it returns in one call:
///
/// ```swift
/// let loginFeature = Feature<LoginState, LoginAction, AuthenticationClient>(reducer: loginReducer) {
///     loginMiddleware
/// }
///
/// let appFeature = Feature<AppState, AppAction, AppServices>(reducer: appCoreReducer)
///     .ifCaseLet(case: { $0.login }, embed: AppState.login, action: { $0.login }, embedAction: AppAction.login,
///                services: \.authentication) { loginFeature }
///
/// let store = Store(state: AppState.login(LoginState()), feature: appFeature, services: services)
/// ```
///
/// Each lift (`scope`, `ifLet` for an optional part or a presented child, `ifCaseLet` for a case
/// of an enum state, `forEach` for identified rows) returns the parent feature with
/// the child's reducer run before the parent's own for the child's actions, and the child's side
/// effects among the parent's. The child keeps the services it declares: the lift takes a key
/// path or a function into the parent's services (a child whose services are the parent's, or
/// that needs none, is lifted without one).
///
/// A child action that its own reducer handled reports no issue even when the parent's reducer then
/// removes the child in the same step (a login that succeeds switches the app to its next
/// screen): the child's side effects for it are cancelled with the child, as TCA cancels a
/// dismissed child's effects. A child action that arrives when the child is already gone is
/// reported once, naming the lift's call site.
///
/// The separate lifters (`scopeReducer` and `scopeMiddleware`, `ifLetReducer` and
/// `ifLetMiddleware`, `forEachReducer` and `forEachMiddleware`) stay for reducers and middlewares
/// written apart.
public struct Feature<State, Action: Sendable, Services>: Sendable {
    /// The feature's reducer, its children's included, run in place.
    public let reducer: InPlaceReducer<State, Action>
    /// The feature's side effects, its children's included: statements of a store's
    /// ``SideEffectBuilder``.
    public let sideEffects: [SideEffect<State, Action, Services>]

    /// A feature with an in-place reducer and side effects composed in a ``SideEffectBuilder``.
    ///
    /// - Parameters:
    ///   - reducer: The feature's own reducer.
    ///   - sideEffects: The feature's own middlewares, plain or lifted.
    public init(
        reducer: @escaping InPlaceReducer<State, Action>,
        @SideEffectBuilder<State, Action, Services> sideEffects: () -> [SideEffect<State, Action, Services>] = { [] }
    ) {
        self.reducer = reducer
        self.sideEffects = sideEffects()
    }

    /// A feature with a reducer that returns the next state, and side effects composed in a
    /// ``SideEffectBuilder``.
    ///
    /// - Parameters:
    ///   - reducer: The feature's own reducer.
    ///   - sideEffects: The feature's own middlewares, plain or lifted.
    public init(
        reducer: @escaping Reducer<State, Action>,
        @SideEffectBuilder<State, Action, Services> sideEffects: () -> [SideEffect<State, Action, Services>] = { [] }
    ) {
        self.init(reducer: inPlaceReducer(reducer), sideEffects: sideEffects)
    }

    init(reducer: @escaping InPlaceReducer<State, Action>, sideEffects: [SideEffect<State, Action, Services>]) {
        self.reducer = reducer
        self.sideEffects = sideEffects
    }

    /// This feature with a child's reducer run first for the child's actions, and the child's
    /// side effects added after this feature's.
    /// `afterParent`, when given, runs after this feature's reducer (a presentation lift closes
    /// its child there, once the parent has seen the child's last action).
    func adding(
        childReducer: @escaping InPlaceReducer<State, Action>,
        afterParent: InPlaceReducer<State, Action>? = nil,
        childSideEffects: [SideEffect<State, Action, Services>]
    ) -> Feature {
        let parent = reducer
        return Feature(
            reducer: { state, action in
                childReducer(&state, action)
                parent(&state, action)
                afterParent?(&state, action)
            },
            sideEffects: sideEffects + childSideEffects)
    }
}

extension SideEffect {
    /// This side effect in a store whose services contain this one's: `services` takes them out.
    func pullback<ParentServices>(
        services: @escaping @Sendable (ParentServices) -> Services
    ) -> SideEffect<State, Action, ParentServices> {
        let middleware = self.middleware
        let lifted: Middleware<State, Action, ParentServices> = { state, action, parentServices, dispatch in
            await middleware(state, action, services(parentServices), dispatch)
        }
        guard let selects else { return SideEffect<State, Action, ParentServices>(always: lifted) }
        return SideEffect<State, Action, ParentServices>(lifted, selects: selects)
    }
}

extension SideEffect {
    /// This lifted side effect, asked with no action about a child action when `isGone` says the
    /// child it names is not in the state after the reducer (the parent's reducer removed it for
    /// that very action, or it was already gone, which the child's reducer reports): the child's
    /// side effects skip the action silently, and the lift still cancels the removed child's work.
    func skippingActionsOfGoneChildren(
        _ isGone: @escaping @Sendable (State, Action) -> Bool
    ) -> SideEffect {
        guard let selects else { return self }
        return SideEffect(
            middleware,
            selects: { state, action, dispatch in
                if let action, isGone(state, action) { return selects(state, nil, dispatch) }
                return selects(state, action, dispatch)
            })
    }
}

/// Reports a child action that its lifted feature received after the child was gone.
func reportMissingFeatureState<ChildAction>(_ action: ChildAction, what: String, site: String) {
    reportMissingChildState(action, what: what, site: site, lift: "the feature lifted")
}
