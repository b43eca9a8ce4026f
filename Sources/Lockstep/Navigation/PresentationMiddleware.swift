/// Lifts the middleware of a presented child to an optional part of the app state: it runs for
/// the child's ``PresentationAction/presented(_:)`` actions, cancels the child's work when the
/// child goes, and lets the child dismiss itself.
///
/// The child's middleware sees its part of the state and its own actions, and dispatches its own
/// actions, which are embedded as `.presented(...)`. Its dispatcher's
/// ``Dispatcher/dismiss(fileID:filePath:line:column:)`` dispatches the parent's
/// ``PresentationAction/dismiss``. When the part becomes `nil`, or is replaced by one with
/// another `id` or another case of an enum of destinations, the child's work still running is
/// cancelled. A child action that arrives while the part is `nil` is ignored here: the
/// presentation form of `ifLetReducer` reports it, and closes an alert before its button's
/// action reaches the middlewares.
///
/// ```swift
/// ifLetMiddleware(editorMiddleware, state: \BookState.editor, action: { $0.editor }, embed: BookAction.editor)
/// ```
///
/// - Parameters:
///   - middleware: The child's middleware.
///   - state: The optional part of the app state.
///   - action: Returns the presentation action embedded in an app action, or `nil`.
///   - embed: Embeds a presentation action in an app action, usually the enum case.
///   - fileID: Named in the issue for a child action without state; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: A middleware of the app.
public func ifLetMiddleware<State, Action, FeatureState, FeatureAction, Services: Sendable>(
    _ middleware: @escaping Middleware<FeatureState, FeatureAction, Services>,
    state: KeyPath<State, FeatureState?> & Sendable,
    action: @escaping @Sendable (Action) -> PresentationAction<FeatureAction>?,
    embed: @escaping @Sendable (PresentationAction<FeatureAction>) -> Action,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> Middleware<State, Action, Services> where FeatureState: Sendable, State: Sendable {
    // A child action while the part is nil is the presentation reducer's to report: after the
    // action of an alert's button, the reducer has closed the alert before the middleware runs.
    let lifted = liftIfLet(
        middleware, state: state, action: { action($0)?.presented }, embed: { embed(.presented($0)) },
        reportsMissingState: false, site: "\(fileID):\(line)")
    return { appState, appAction, services, dispatch in
        // The child's dispatcher is scoped from this one, and inherits its dismissal.
        await lifted(appState, appAction, services, dispatch.dismissing { await dispatch(embed(.dismiss)) })
    }
}

/// Lifts the middleware of a presented child that needs no services to an optional part of the
/// app state; the child can dismiss itself.
///
/// The same as
/// ``ifLetMiddleware(_:state:action:embed:fileID:line:)-(Middleware<FeatureState,FeatureAction,Services>,_,(Action)->PresentationAction<FeatureAction>?,_,_,_)``
/// for a ``PlainMiddleware``.
///
/// - Parameters:
///   - middleware: The child's middleware.
///   - state: The optional part of the app state.
///   - action: Returns the presentation action embedded in an app action, or `nil`.
///   - embed: Embeds a presentation action in an app action.
///   - fileID: Named in the issue for a child action without state; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: A middleware of the app.
public func ifLetMiddleware<State, Action, FeatureState, FeatureAction>(
    _ middleware: @escaping PlainMiddleware<FeatureState, FeatureAction>,
    state: KeyPath<State, FeatureState?> & Sendable,
    action: @escaping @Sendable (Action) -> PresentationAction<FeatureAction>?,
    embed: @escaping @Sendable (PresentationAction<FeatureAction>) -> Action,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> PlainMiddleware<State, Action> where FeatureState: Sendable, State: Sendable {
    let lifted: Middleware<State, Action, Void> = ifLetMiddleware(
        { featureState, featureAction, _, dispatch in await middleware(featureState, featureAction, dispatch) },
        state: state, action: action, embed: embed, fileID: fileID, line: line)
    return { state, action, dispatch in await lifted(state, action, (), dispatch) }
}
