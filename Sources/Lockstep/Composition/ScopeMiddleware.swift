/// Lifts a feature's middleware to the app: it sees the feature's part of the state and the
/// feature's actions, and dispatches feature actions.
///
/// ```swift
/// let store = Store(state: AppState(), reducer: appReducer, services: services) {
///     scopeMiddleware(searchMiddleware, state: \AppState.search, action: \AppAction.search, embed: AppAction.search)
/// }
/// ```
///
/// For an app action that `action` extracts no feature action from, the feature middleware is
/// not called at all: the store checks `action` right after the reducer, before it calls or
/// schedules anything. The dispatcher it receives embeds its actions with `embed`, reads the
/// feature's part with ``Dispatcher/currentState(as:fileID:filePath:line:column:)``, and shares the store's cancellation ids.
///
/// - Parameters:
///   - middleware: The feature's middleware.
///   - state: The feature's part of the app state.
///   - action: Extracts the feature action from an app action, or returns `nil`.
///   - embed: Embeds a feature action in an app action, usually the enum case.
/// - Returns: A side effect of the app, a statement of its store's ``SideEffectBuilder``.
@inlinable
public func scopeMiddleware<State, Action, FeatureState, FeatureAction, Services>(
    _ middleware: @escaping Middleware<FeatureState, FeatureAction, Services>,
    state: KeyPath<State, FeatureState> & Sendable,
    action: @escaping @Sendable (Action) -> FeatureAction?,
    embed: @escaping @Sendable (FeatureAction) -> Action
) -> SideEffect<State, Action, Services> where FeatureState: Sendable, State: Sendable {
    // Inlinable, so that the check of `action`, which the store makes for every action, is
    // specialized in the app's module for its types instead of running generic code.
    SideEffect(
        { appState, appAction, services, dispatch in
            guard let featureAction = action(appAction) else { return }
            let featureDispatch: Dispatcher<FeatureAction> = dispatch.scoped(
                embed: embed, state: { (appState: State) in appState[keyPath: state] })
            await middleware(appState[keyPath: state], featureAction, services, featureDispatch)
        },
        selects: { _, appAction, _ in appAction.flatMap(action) != nil ? .selected : .skipped })
}

/// Lifts a feature's middleware that needs no services to the app.
///
/// The same as ``scopeMiddleware(_:state:action:embed:)-(Middleware<FeatureState,FeatureAction,Services>,_,_,_)``
/// for a ``PlainMiddleware``.
///
/// ```swift
/// let store = Store(state: AppState(), reducer: appReducer) {
///     scopeMiddleware(searchMiddleware, state: \AppState.search, action: \AppAction.search, embed: AppAction.search)
/// }
/// ```
///
/// - Parameters:
///   - middleware: The feature's middleware.
///   - state: The feature's part of the app state.
///   - action: Extracts the feature action from an app action, or returns `nil`.
///   - embed: Embeds a feature action in an app action.
/// - Returns: A side effect of the app, a statement of its store's ``SideEffectBuilder``.
@inlinable
public func scopeMiddleware<State, Action, FeatureState, FeatureAction>(
    _ middleware: @escaping PlainMiddleware<FeatureState, FeatureAction>,
    state: KeyPath<State, FeatureState> & Sendable,
    action: @escaping @Sendable (Action) -> FeatureAction?,
    embed: @escaping @Sendable (FeatureAction) -> Action
) -> SideEffect<State, Action, Void> where FeatureState: Sendable, State: Sendable {
    scopeMiddleware(ignoringServices(middleware), state: state, action: action, embed: embed)
}

/// Lifts a feature's side effects, composed in a ``SideEffectBuilder``, to the app: each sees
/// the feature's part of the state and the feature's actions, as TCA's `Scope` lifts a feature's
/// reducers.
///
/// ```swift
/// @SideEffectBuilder<ListState, ListAction, Services>
/// var listSideEffects: [SideEffect<ListState, ListAction, Services>] {
///     listMiddleware
///     forEachMiddleware(rowMiddleware, state: \.rows, action: \.row, embed: ListAction.row)
/// }
///
/// let store = Store(state: AppState(), reducer: appReducer, services: services) {
///     scopeMiddleware(listSideEffects, state: \.list, action: \.list, embed: AppAction.list)
/// }
/// ```
///
/// For an app action that `action` extracts no feature action from, none of them is called; for
/// a feature action, each lifted one among them is checked as it is in the feature's own store.
/// A child lifted among them (an `ifLetMiddleware` in the feature's builder) has its presence
/// recorded right after every reducer, the app's own actions included: a sheet the app's reducer
/// closes has its work cancelled then. (A child lifted inside the rows of a `forEachMiddleware` or
/// the screens of a stack is checked at its row's or screen's actions: no action does work per
/// row.)
///
/// - Parameters:
///   - sideEffects: The feature's side effects.
///   - state: The feature's part of the app state.
///   - action: Extracts the feature action from an app action, or returns `nil`.
///   - embed: Embeds a feature action in an app action, usually the enum case.
/// - Returns: The side effects of the app, statements of its store's ``SideEffectBuilder``.
public func scopeMiddleware<State, Action, FeatureState, FeatureAction, Services>(
    _ sideEffects: [SideEffect<FeatureState, FeatureAction, Services>],
    state: KeyPath<State, FeatureState> & Sendable,
    action: @escaping @Sendable (Action) -> FeatureAction?,
    embed: @escaping @Sendable (FeatureAction) -> Action
) -> [SideEffect<State, Action, Services>] where FeatureState: Sendable, State: Sendable {
    let featureDispatch = { @Sendable (dispatch: Dispatcher<Action>) -> Dispatcher<FeatureAction> in
        dispatch.scoped(embed: embed, state: { (appState: State) in appState[keyPath: state] })
    }
    return sideEffects.map { sideEffect in
        let middleware = sideEffect.middleware
        let featureSelects = sideEffect.selects
        return SideEffect(
            { appState, appAction, services, dispatch in
                guard let featureAction = action(appAction) else { return }
                await middleware(appState[keyPath: state], featureAction, services, featureDispatch(dispatch))
            },
            selects: { appState, appAction, dispatch in
                guard let featureSelects else { return appAction.flatMap(action) != nil ? .selected : .skipped }
                guard let featureAction = appAction.flatMap(action) else {
                    // An action of another feature: the lifts among the feature's side effects
                    // record the presence of their children (a sheet the app's reducer closed).
                    _ = featureSelects(appState[keyPath: state], nil, featureDispatch(dispatch))
                    return .skipped
                }
                // A lift among the feature's side effects registers its child's work here; the
                // middleware finds the reservation in the dispatcher, which the feature's carries on.
                return featureSelects(appState[keyPath: state], featureAction, featureDispatch(dispatch))
            })
    }
}
