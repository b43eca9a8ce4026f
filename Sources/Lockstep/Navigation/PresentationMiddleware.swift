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
/// let store = Store(state: BookState(), reducer: bookReducer) {
///     ifLetMiddleware(editorMiddleware, state: \BookState.editor, action: { $0.editor }, embed: BookAction.editor)
/// }
/// ```
///
/// - Parameters:
///   - middleware: The child's middleware.
///   - state: The optional part of the app state.
///   - action: Returns the presentation action embedded in an app action, or `nil`.
///   - embed: Embeds a presentation action in an app action, usually the enum case.
///   - fileID: Named in the issue for a child action without state; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: A side effect of the app, a statement of its store's ``SideEffectBuilder``.
public func ifLetMiddleware<State, Action, FeatureState, FeatureAction, Services: Sendable>(
    _ middleware: @escaping Middleware<FeatureState, FeatureAction, Services>,
    state: KeyPath<State, FeatureState?> & Sendable,
    action: @escaping @Sendable (Action) -> PresentationAction<FeatureAction>?,
    embed: @escaping @Sendable (PresentationAction<FeatureAction>) -> Action,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> SideEffect<State, Action, Services> where FeatureState: Sendable, State: Sendable {
    liftPresented(middleware, selects: nil, state: state, action: action, embed: embed, site: "\(fileID):\(line)")
}

/// Lifts the side effects of a presented child, composed in a ``SideEffectBuilder`` (such as
/// one per case of an enum of destinations), to an optional part of the app state: each runs
/// for the child's ``PresentationAction/presented(_:)`` actions, as
/// ``ifLetMiddleware(_:state:action:embed:fileID:line:)-(Middleware<FeatureState,FeatureAction,Services>,_,(Action)->PresentationAction<FeatureAction>?,_,_,_)``
/// lifts one middleware.
///
/// ```swift
/// @SideEffectBuilder<Destination, DestinationAction, Void>
/// var destinationSideEffects: [SideEffect<Destination, DestinationAction, Void>] {
///     scopeMiddleware(editorMiddleware, case: { $0.editor }, action: { $0.editor }, embed: DestinationAction.editor)
/// }
///
/// let store = Store(state: BookState(), reducer: bookReducer) {
///     ifLetMiddleware(destinationSideEffects, state: \BookState.destination, action: { $0.destination }, embed: BookAction.destination)
/// }
/// ```
///
/// - Parameters:
///   - sideEffects: The child's side effects.
///   - state: The optional part of the app state.
///   - action: Returns the presentation action embedded in an app action, or `nil`.
///   - embed: Embeds a presentation action in an app action, usually the enum case.
///   - fileID: Named in the issue for a child action without state; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: The side effects of the app, statements of its store's ``SideEffectBuilder``.
public func ifLetMiddleware<State, Action, FeatureState, FeatureAction, Services: Sendable>(
    _ sideEffects: [SideEffect<FeatureState, FeatureAction, Services>],
    state: KeyPath<State, FeatureState?> & Sendable,
    action: @escaping @Sendable (Action) -> PresentationAction<FeatureAction>?,
    embed: @escaping @Sendable (PresentationAction<FeatureAction>) -> Action,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> [SideEffect<State, Action, Services>] where FeatureState: Sendable, State: Sendable {
    sideEffects.map { sideEffect in
        liftPresented(
            sideEffect.middleware, selects: sideEffect.selects, state: state, action: action, embed: embed,
            site: "\(fileID):\(line)")
    }
}

/// A presented child's middleware lifted to the app; the child dismisses itself through its
/// dispatcher.
private func liftPresented<State, Action, FeatureState, FeatureAction, Services: Sendable>(
    _ middleware: @escaping Middleware<FeatureState, FeatureAction, Services>,
    selects: SideEffectSelector<FeatureState, FeatureAction>?,
    state: KeyPath<State, FeatureState?> & Sendable,
    action: @escaping @Sendable (Action) -> PresentationAction<FeatureAction>?,
    embed: @escaping @Sendable (PresentationAction<FeatureAction>) -> Action,
    site: String
) -> SideEffect<State, Action, Services> where FeatureState: Sendable, State: Sendable {
    // A child action while the part is nil is the presentation reducer's to report: after the
    // action of an alert's button, the reducer has closed the alert before the middleware runs.
    liftIfLet(
        middleware, selects: selects, state: state, action: { action($0)?.presented },
        embed: { embed(.presented($0)) }, dismissal: embed(.dismiss), reportsMissingState: false, site: site)
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
/// - Returns: A side effect of the app, a statement of its store's ``SideEffectBuilder``.
public func ifLetMiddleware<State, Action, FeatureState, FeatureAction>(
    _ middleware: @escaping PlainMiddleware<FeatureState, FeatureAction>,
    state: KeyPath<State, FeatureState?> & Sendable,
    action: @escaping @Sendable (Action) -> PresentationAction<FeatureAction>?,
    embed: @escaping @Sendable (PresentationAction<FeatureAction>) -> Action,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> SideEffect<State, Action, Void> where FeatureState: Sendable, State: Sendable {
    ifLetMiddleware(ignoringServices(middleware), state: state, action: action, embed: embed, fileID: fileID, line: line)
}
