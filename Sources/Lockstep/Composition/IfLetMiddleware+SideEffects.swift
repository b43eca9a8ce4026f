/// Lifts a feature's side effects, composed in a ``SideEffectBuilder``, to an optional part of
/// the app state: each runs for the feature's actions while the part is there, as
/// ``ifLetMiddleware(_:state:action:embed:fileID:line:)-(Middleware<FeatureState,FeatureAction,Services>,_,(Action)->FeatureAction?,_,_,_)``
/// lifts one middleware.
///
/// A lifted feature lifts again: the feature's own side effects may lift a child of its own (an
/// optional grandchild, rows, a case), and the whole list is lifted to the app in one call.
///
/// ```swift
/// let detailSideEffects = SideEffects<DetailState, DetailAction, Void> {
///     detailMiddleware
///     ifLetMiddleware(noteMiddleware, state: \DetailState.note, action: \DetailAction.note, embed: DetailAction.note)
/// }
/// let store = Store(state: AppState(), reducer: appReducer) {
///     ifLetMiddleware(detailSideEffects, state: \AppState.detail, action: \AppAction.detail, embed: AppAction.detail)
/// }
/// ```
///
/// - Parameters:
///   - sideEffects: The feature's side effects.
///   - state: The optional part of the app state.
///   - action: Extracts the feature action from an app action, or returns `nil`.
///   - embed: Embeds a feature action in an app action.
///   - fileID: Named in the issue for a feature action without state; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: The side effects of the app, statements of its store's ``SideEffectBuilder``.
public func ifLetMiddleware<State, Action, FeatureState, FeatureAction, Services: Sendable>(
    _ sideEffects: [SideEffect<FeatureState, FeatureAction, Services>],
    state: KeyPath<State, FeatureState?> & Sendable,
    action: @escaping @Sendable (Action) -> FeatureAction?,
    embed: @escaping @Sendable (FeatureAction) -> Action,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> [SideEffect<State, Action, Services>] where FeatureState: Sendable, State: Sendable {
    sideEffects.map { sideEffect in
        liftIfLet(
            sideEffect.middleware, selects: sideEffect.selects, state: state, action: action, embed: embed,
            reportsMissingState: true, site: "\(fileID):\(line)")
    }
}
