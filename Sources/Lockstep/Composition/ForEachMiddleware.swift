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
        // Each row names its cancellation ids in a namespace of its own.
        let rowWork = CancelKey(ChildWorkID(scope: scope.id, identity: CancelKey(id)))
        let rowDispatch: Dispatcher<RowAction> = dispatch.reserving(nil).scopingIDs(to: rowWork).scoped(
            embed: { embed(id, $0) }, state: { (appState: State) in lookup.row(id, in: appState[keyPath: state]) },
            requiringPart: true)
        let operation: @Sendable () async -> Void = { await middleware(row, rowAction, services, rowDispatch) }
        guard let reservation else {
            // Not reached through the store's check: the work runs under the row's id.
            await dispatch.cancellations.run(rowWork, cancelInFlight: false, operation: operation)
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
