/// Lifts a feature's middleware to an optional part of the app state, such as a presented
/// screen.
///
/// The feature middleware runs for the feature's actions while the part is not `nil`, under a
/// cancellation id of its own: when the part becomes `nil`, or is replaced by one with another
/// `id` (for an `Identifiable` part), the work still running for it is cancelled, right after the
/// reducer that changed it, in the order of the reductions: work a feature action starts after a
/// later dismissal was reduced never starts, and a newer child's work is never cancelled by side
/// effects that run late. A feature action that arrives while the part is `nil` is reported as
/// an issue.
///
/// ```swift
/// let store = Store(state: AppState(), reducer: appReducer, services: services) {
///     ifLetMiddleware(detailMiddleware, state: \AppState.detail, action: \AppAction.detail, embed: AppAction.detail)
/// }
/// ```
///
/// - Parameters:
///   - middleware: The feature's middleware.
///   - state: The optional part of the app state.
///   - action: Extracts the feature action from an app action, or returns `nil`.
///   - embed: Embeds a feature action in an app action.
///   - fileID: Named in the issue for a feature action without state; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: A side effect of the app, a statement of its store's ``SideEffectBuilder``.
public func ifLetMiddleware<State, Action, FeatureState, FeatureAction, Services: Sendable>(
    _ middleware: @escaping Middleware<FeatureState, FeatureAction, Services>,
    state: KeyPath<State, FeatureState?> & Sendable,
    action: @escaping @Sendable (Action) -> FeatureAction?,
    embed: @escaping @Sendable (FeatureAction) -> Action,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> SideEffect<State, Action, Services> where FeatureState: Sendable, State: Sendable {
    liftIfLet(middleware, state: state, action: action, embed: embed, reportsMissingState: true, site: "\(fileID):\(line)")
}

/// The side effect `ifLetMiddleware` returns; without `reportsMissingState`, a feature action
/// while the part is `nil` is ignored silently (an alert's button, whose alert the reducer
/// already closed).
///
/// `featureSelects`, the check of a lifted feature side effect, is asked for a feature action
/// while the part is there. With a `dismissal` action, the feature's dispatcher dismisses the
/// child by dispatching it (see ``Dispatcher/dismiss(fileID:filePath:line:column:)``).
func liftIfLet<State, Action, FeatureState, FeatureAction, Services: Sendable>(
    _ middleware: @escaping Middleware<FeatureState, FeatureAction, Services>,
    selects featureSelects: SideEffectSelector<FeatureState, FeatureAction>? = nil,
    state: KeyPath<State, FeatureState?> & Sendable,
    action: @escaping @Sendable (Action) -> FeatureAction?,
    embed: @escaping @Sendable (FeatureAction) -> Action,
    dismissal: Action? = nil,
    reportsMissingState: Bool,
    site: String
) -> SideEffect<State, Action, Services> where FeatureState: Sendable, State: Sendable {
    let scope = ScopeToken()
    // Right after each reducer, in the order of the reductions, the check records the child the
    // state presents (cancelling a dismissed one's work). For the child's action, it registers
    // the work the middleware will start, in the same critical section: a dismissal reduced
    // later cancels it, and the middleware, which may run after later reductions, never records
    // the presence of its own, older state. For an action of no feature (or one the feature's
    // own check leaves out), the middleware is not called.
    let selects: SideEffectSelector<State, Action> = { appState, appAction, dispatch in
        let featureState = appState[keyPath: state]
        guard let featureAction = appAction.flatMap(action) else {
            dispatch.cancellations.present(featureState.map(presentationIdentity(of:)), in: scope)
            // The lifts among the child's side effects record the presence of their own children.
            if let featureSelects, let featureState {
                let featureDispatch: Dispatcher<FeatureAction> = dispatch.scoped(
                    embed: embed, state: { (appState: State) in appState[keyPath: state] }, requiringPart: true)
                _ = featureSelects(featureState, nil, featureDispatch)
            }
            return .skipped
        }
        guard let featureState else {
            // A feature action without state: the middleware reports it.
            dispatch.cancellations.present(nil, in: scope)
            return .selected
        }
        let presented = presentationIdentity(of: featureState)
        var inner: ChildWorkReservation?
        if let featureSelects {
            let featureDispatch: Dispatcher<FeatureAction> = dispatch.scoped(
                embed: embed, state: { (appState: State) in appState[keyPath: state] }, requiringPart: true)
            switch featureSelects(featureState, featureAction, featureDispatch) {
            case .skipped:
                dispatch.cancellations.present(presented, in: scope)
                return .skipped
            case .selected:
                break
            case .reserved(let reservation):
                inner = reservation
            }
        }
        return .reserved(dispatch.cancellations.reserve(presenting: presented, in: scope, inner: inner))
    }
    return SideEffect(selects: selects) { appState, appAction, services, dispatch in
        guard let featureAction = action(appAction) else { return }
        guard let featureState = appState[keyPath: state] else {
            if reportsMissingState {
                reportMissingChildState(featureAction, what: "its optional state is nil", site: site)
            }
            return
        }
        // A presented child dismisses itself by dispatching `dismissal`; the feature's
        // dispatcher is scoped from this one, and inherits it.
        let reservation = dispatch.reservation.flatMap { $0.scope == scope.id ? $0 : nil }
        let childDispatch = dispatch.reserving(reservation?.inner)
        let parentDispatch =
            dismissal.map { dismissal in childDispatch.dismissing { await dispatch(dismissal) } } ?? childDispatch
        // Each presentation names its cancellation ids in a namespace of its own.
        let presented = CancelKey(ChildWorkID(scope: scope.id, identity: presentationIdentity(of: featureState)))
        let featureDispatch: Dispatcher<FeatureAction> = parentDispatch.scopingIDs(to: presented).scoped(
            embed: embed, state: { (appState: State) in appState[keyPath: state] }, requiringPart: true)
        let operation: @Sendable () async -> Void = {
            await middleware(featureState, featureAction, services, featureDispatch)
        }
        guard let reservation else {
            // Not reached through the store's check (which always reserves for a present
            // child): the work runs under the child's id without recording its presence.
            await dispatch.cancellations.run(presented, cancelInFlight: false, operation: operation)
            return
        }
        // Registered right after the reducer: cancelled meanwhile, it never starts.
        await dispatch.cancellations.run(reservation, operation: operation)
    }
}

/// Lifts a feature's middleware that needs no services to an optional part of the app state.
///
/// The same as ``ifLetMiddleware(_:state:action:embed:fileID:line:)-(Middleware<FeatureState,FeatureAction,Services>,_,(Action)->FeatureAction?,_,_,_)``
/// for a ``PlainMiddleware``.
///
/// - Parameters:
///   - middleware: The feature's middleware.
///   - state: The optional part of the app state.
///   - action: Extracts the feature action from an app action, or returns `nil`.
///   - embed: Embeds a feature action in an app action.
///   - fileID: Named in the issue for a feature action without state; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: A side effect of the app, a statement of its store's ``SideEffectBuilder``.
public func ifLetMiddleware<State, Action, FeatureState, FeatureAction>(
    _ middleware: @escaping PlainMiddleware<FeatureState, FeatureAction>,
    state: KeyPath<State, FeatureState?> & Sendable,
    action: @escaping @Sendable (Action) -> FeatureAction?,
    embed: @escaping @Sendable (FeatureAction) -> Action,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> SideEffect<State, Action, Void> where FeatureState: Sendable, State: Sendable {
    ifLetMiddleware(ignoringServices(middleware), state: state, action: action, embed: embed, fileID: fileID, line: line)
}

/// The identity of a presented child: its `id` when it is `Identifiable`; for an enum of
/// destinations, its case and the `id` of the case's value; otherwise one value for "presented".
func presentationIdentity<Value: Sendable>(of value: Value) -> CancelKey {
    func id<I: Identifiable>(_ value: I) -> CancelKey {
        CancelKey(idOfSendableValue: AnyHashable(value.id))
    }
    if let identifiable = value as? any Identifiable { return id(identifiable) }
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .enum else { return CancelKey(PresentedMarker()) }
    // Another case is another child, whose presentation cancels the work of the one before.
    guard let child = mirror.children.first, let name = child.label else {
        return CancelKey(DestinationIdentity(caseName: String(describing: value), id: nil))
    }
    let caseID = (child.value as? any Identifiable).map { id($0) }
    return CancelKey(DestinationIdentity(caseName: name, id: caseID))
}

/// The identity of a presented enum: its case and the `id` of the case's value.
private struct DestinationIdentity: Hashable, Sendable {
    let caseName: String
    let id: CancelKey?
}

private struct PresentedMarker: Hashable, Sendable {}
