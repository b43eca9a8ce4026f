import IssueReporting

/// A middleware that needs no services: the form ``Store/init(state:reducer:middlewares:effects:observers:)-(_,(State,Action)->State,_,_,_)``
/// takes. It receives the state the reducer returned for `action`, the action, and a
/// ``Dispatcher`` for follow-up actions.
///
/// ```swift
/// let countdown: PlainMiddleware<Counter, CounterAction> = { _, action, dispatch in
///   guard case .countdown(let n) = action, n > 0 else { return }
///   await dispatch(.countdown(n - 1))
/// }
/// let store = Store(state: Counter(), reducer: counterReducer, middlewares: [countdown])
/// ```
public typealias PlainMiddleware<State, Action: Sendable> = @Sendable (
    _ state: State,
    _ action: Action,
    _ dispatch: Dispatcher<Action>
) async -> Void

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
            dispatch.cancellations.present(featureState.map(identity(of:)), in: scope)
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
        let presented = identity(of: featureState)
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
        let featureDispatch: Dispatcher<FeatureAction> = parentDispatch.scoped(
            embed: embed, state: { (appState: State) in appState[keyPath: state] }, requiringPart: true)
        let operation: @Sendable () async -> Void = {
            await middleware(featureState, featureAction, services, featureDispatch)
        }
        guard let reservation else {
            // Not reached through the store's check (which always reserves for a present
            // child): the work runs under the child's id without recording its presence.
            let id = CancelKey(ChildWorkID(scope: scope.id, identity: identity(of: featureState)))
            await dispatch.cancellations.run(id, cancelInFlight: false, operation: operation)
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

/// Lifts a row's middleware to every element of a collection of identifiable rows.
///
/// The row middleware runs for the row actions `action` extracts, with the row's state, under a
/// cancellation id of its own: when the row is removed, the work still running for it is
/// cancelled, right after the reducer that removed it, in the order of the reductions. A row
/// action for an id that is not in the collection is reported as an issue.
///
/// Rows are found by id through ``RowsIndexedByID/index(id:)`` when the collection's type
/// conforms (an `IdentifiedArray` does), by a linear search otherwise.
///
/// ```swift
/// let store = Store(state: AppState(), reducer: appReducer, services: services) {
///     forEachMiddleware(todoMiddleware, state: \AppState.todos, action: \AppAction.todo, embed: AppAction.todo)
/// }
/// ```
///
/// - Parameters:
///   - middleware: The row's middleware.
///   - state: The collection of rows in the app state.
///   - action: Extracts the row id and row action from an app action, or returns `nil`.
///   - embed: Embeds a row id and a row action in an app action, usually the enum case.
///   - fileID: Named in the issue for an unknown row; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: A side effect of the app, a statement of its store's ``SideEffectBuilder``.
public func forEachMiddleware<State, Action, Rows, RowAction, Services: Sendable>(
    _ middleware: @escaping Middleware<Rows.Element, RowAction, Services>,
    state: KeyPath<State, Rows> & Sendable,
    action: @escaping @Sendable (Action) -> (Rows.Element.ID, RowAction)?,
    embed: @escaping @Sendable (Rows.Element.ID, RowAction) -> Action,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> SideEffect<State, Action, Services>
where State: Sendable, Rows: RandomAccessCollection & SendableMetatype, Rows.Element: Identifiable & Sendable,
    Rows.Element.ID: Sendable {
    let scope = ScopeToken()
    let site = "\(fileID):\(line)"
    let lookup = RowLookup<Rows>()
    // Right after each reducer, in the order of the reductions, the check cancels the work of
    // removed rows (looking only at the rows of this lift that have work running), and for a row
    // action registers the work the middleware will start, in the same critical section: a
    // removal reduced later cancels it. For an action of no row, the middleware is not called.
    let selects: SideEffectSelector<State, Action> = { appState, appAction, dispatch in
        let rows = appState[keyPath: state]
        let isPresent = { (id: Rows.Element.ID) in lookup.index(rows, id) != nil }
        guard let (id, _) = appAction.flatMap(action) else {
            dispatch.cancellations.cancelRemovedRows(in: scope, isPresent: isPresent)
            return .skipped
        }
        // Reserved without looking the row up (the middleware does): for a row that is not
        // there, the middleware reports the action and gives the reservation up.
        return .reserved(dispatch.cancellations.reserve(row: id, in: scope, isPresent: isPresent, inner: nil))
    }
    return SideEffect(selects: selects) { appState, appAction, services, dispatch in
        guard let (id, rowAction) = action(appAction) else { return }
        let reservation = dispatch.reservation.flatMap { $0.scope == scope.id ? $0 : nil }
        guard let row = lookup.row(id, in: appState[keyPath: state]) else {
            if let reservation { dispatch.cancellations.giveUp(reservation) }
            reportMissingChildState(rowAction, what: "no row has the id \(id)", site: site)
            return
        }
        let rowDispatch: Dispatcher<RowAction> = dispatch.reserving(nil).scoped(
            embed: { embed(id, $0) }, state: { (appState: State) in lookup.row(id, in: appState[keyPath: state]) },
            requiringPart: true)
        let operation: @Sendable () async -> Void = { await middleware(row, rowAction, services, rowDispatch) }
        guard let reservation else {
            // Not reached through the store's check: the work runs under the row's id.
            let id = CancelKey(ChildWorkID(scope: scope.id, identity: CancelKey(id)))
            await dispatch.cancellations.run(id, cancelInFlight: false, operation: operation)
            return
        }
        // Registered right after the reducer: cancelled meanwhile by the row's removal, it never
        // starts.
        await dispatch.cancellations.run(reservation, operation: operation)
    }
}

/// Lifts a row's middleware that needs no services to every element of a collection of rows.
///
/// The same as ``forEachMiddleware(_:state:action:embed:fileID:line:)-(Middleware<Rows.Element,RowAction,Services>,_,_,_,_,_)``
/// for a ``PlainMiddleware``.
///
/// - Parameters:
///   - middleware: The row's middleware.
///   - state: The collection of rows in the app state.
///   - action: Extracts the row id and row action from an app action, or returns `nil`.
///   - embed: Embeds a row id and a row action in an app action.
///   - fileID: Named in the issue for an unknown row; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: A side effect of the app, a statement of its store's ``SideEffectBuilder``.
public func forEachMiddleware<State, Action, Rows, RowAction>(
    _ middleware: @escaping PlainMiddleware<Rows.Element, RowAction>,
    state: KeyPath<State, Rows> & Sendable,
    action: @escaping @Sendable (Action) -> (Rows.Element.ID, RowAction)?,
    embed: @escaping @Sendable (Rows.Element.ID, RowAction) -> Action,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> SideEffect<State, Action, Void>
where State: Sendable, Rows: RandomAccessCollection & SendableMetatype, Rows.Element: Identifiable & Sendable,
    Rows.Element.ID: Sendable {
    forEachMiddleware(ignoringServices(middleware), state: state, action: action, embed: embed, fileID: fileID, line: line)
}

/// Lifts a feature's effect to the app: it reads the feature actions extracted from the app's
/// actions, and the actions it emits are embedded in app actions.
///
/// ```swift
/// store.register(scopeEffect(searchEffect, action: \AppAction.search, embed: AppAction.search))
/// ```
///
/// - Parameters:
///   - effect: The feature's effect.
///   - action: Extracts the feature action from an app action, or returns `nil`.
///   - embed: Embeds a feature action in an app action.
/// - Returns: An effect of the app, with the feature effect's name and `dispatch` setting.
public func scopeEffect<Action: Sendable, FeatureAction: Sendable>(
    _ effect: Effect<FeatureAction>,
    action: @escaping @Sendable (Action) -> FeatureAction?,
    embed: @escaping @Sendable (FeatureAction) -> Action
) -> Effect<Action> {
    Effect(name: effect.name, dispatch: effect.dispatch) { (actions: Actions<Action>) -> EffectOutput<Action> in
        EffectOutput(effect.makeOutput(Actions(actions.compactMap(action))).map(embed))
    }
}

/// Names the lifted middleware whose child work a cancellation id belongs to.
final class ScopeToken: Sendable {
    var id: ObjectIdentifier { ObjectIdentifier(self) }
}

/// The cancellation id of a child's work: the lifting it belongs to and the child's identity.
struct ChildWorkID: Hashable, Sendable {
    let scope: ObjectIdentifier
    let identity: CancelKey
}

/// The identity of a presented child: its `id` when it is `Identifiable`; for an enum of
/// destinations, its case and the `id` of the case's value; otherwise one value for "presented".
private func identity<Value: Sendable>(of value: Value) -> CancelKey {
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

/// `middleware` as a middleware that is handed services and ignores them.
@usableFromInline
func ignoringServices<State, Action, Services>(
    _ middleware: @escaping PlainMiddleware<State, Action>
) -> Middleware<State, Action, Services> {
    { state, action, _, dispatch in await middleware(state, action, dispatch) }
}
