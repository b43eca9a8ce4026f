import IssueReporting

/// Lifts the reducer of a navigation stack's screens to the stack: it pushes and pops screens,
/// and runs the screen reducer on the screen an action names.
///
/// `action` extracts the ``StackAction`` from an app action. A push appends the screen's state
/// with a new id, a pop removes the screen with its id and every screen above it, and an
/// element action runs `reducer` in place on the screen with its id. An action for an id the
/// stack does not hold (a late answer for a popped screen) is reported as an issue and changes
/// nothing:
///
/// ```swift
/// let appReducer: InPlaceReducer<AppState, AppAction> = combineReducers(
///     appCoreReducer,
///     forEachReducer(bookDetailReducer, state: \AppState.path, action: \AppAction.path)
/// )
/// ```
///
/// The app's own reducer may change the stack too (`state.path.append(...)`,
/// `state.path.removeAll()`), in response to any action.
///
/// - Parameters:
///   - reducer: The reducer of one screen.
///   - state: The stack in the app state.
///   - action: Returns the stack action embedded in an app action, or `nil`.
///   - fileID: The file the issue for an unknown id names; the caller's.
///   - line: The line the issue names; the caller's.
/// - Returns: An in-place reducer of the app's state and actions.
public func forEachReducer<State, Action, Element, ElementAction>(
    _ reducer: @escaping InPlaceReducer<Element, ElementAction>,
    state: WritableKeyPath<State, StackState<Element>> & Sendable,
    action: @escaping @Sendable (Action) -> StackAction<Element, ElementAction>?,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> InPlaceReducer<State, Action> {
    let site = "\(fileID):\(line)"
    return { appState, appAction in
        guard let stackAction = action(appAction) else { return }
        switch stackAction {
        case .push(let element):
            appState[keyPath: state].append(element)
        case .popFrom(let id):
            guard appState[keyPath: state][id: id] != nil else {
                reportMissingChildState(stackAction, what: "no screen of the stack has the id \(id)", site: site)
                return
            }
            // Before a parent (combineReducers(parent:children:)), the parent sees the screens
            // it pops, as TCA's forEach of a stack runs.
            if let pass = ParentPass.current {
                pass.runAfterParent { (appState: inout State) in _ = appState[keyPath: state].pop(from: id) }
            } else {
                appState[keyPath: state].pop(from: id)
            }
        case .element(let id, let elementAction):
            guard let index = appState[keyPath: state].ids.firstIndex(of: id) else {
                reportMissingChildState(elementAction, what: "no screen of the stack has the id \(id)", site: site)
                return
            }
            reducer(&appState[keyPath: state][index], elementAction)
        }
    }
}

/// Lifts the value-form reducer of a navigation stack's screens to the stack.
///
/// The same as the in-place
/// ``forEachReducer(_:state:action:fileID:line:)-(InPlaceReducer<Element,ElementAction>,_,_,_,_)``.
///
/// - Parameters:
///   - reducer: The reducer of one screen.
///   - state: The stack in the app state.
///   - action: Returns the stack action embedded in an app action, or `nil`.
///   - fileID: The file the issue for an unknown id names; the caller's.
///   - line: The line the issue names; the caller's.
/// - Returns: An in-place reducer of the app's state and actions.
public func forEachReducer<State, Action, Element, ElementAction>(
    _ reducer: @escaping Reducer<Element, ElementAction>,
    state: WritableKeyPath<State, StackState<Element>> & Sendable,
    action: @escaping @Sendable (Action) -> StackAction<Element, ElementAction>?,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> InPlaceReducer<State, Action> {
    forEachReducer(inPlaceReducer(reducer), state: state, action: action, fileID: fileID, line: line)
}

/// Lifts the middleware of a navigation stack's screens to the stack: it runs for each screen's
/// actions, and cancels a screen's work in flight when the screen is popped.
///
/// The screen middleware runs for the element actions `action` extracts, with the screen's
/// state and a dispatcher that embeds its actions as actions of that screen, under a
/// cancellation id of its own. The screen dismisses itself with the dispatcher's
/// ``Dispatcher/dismiss(fileID:filePath:line:column:)``, which dispatches
/// ``StackAction/popFrom(id:)`` with its id. When the screen leaves the stack (a pop, or any change of the
/// stack that removes it), the work still running for it is cancelled. An element action for an
/// id the stack does not hold is reported as an issue.
///
/// ```swift
/// let store = Store(state: AppState(), reducer: appReducer, services: services) {
///     forEachMiddleware(bookDetailMiddleware, state: \AppState.path, action: \AppAction.path, embed: AppAction.path)
/// }
/// ```
///
/// Pushes and pops need no middleware: the app's own middleware sees them as app actions.
///
/// - Parameters:
///   - middleware: The middleware of one screen.
///   - state: The stack in the app state.
///   - action: Returns the stack action embedded in an app action, or `nil`.
///   - embed: Embeds a stack action in an app action, usually the enum case.
///   - fileID: Named in the issue for an unknown id; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: A side effect of the app, a statement of its store's ``SideEffectBuilder``.
public func forEachMiddleware<State, Action, Element, ElementAction, Services: Sendable>(
    _ middleware: @escaping Middleware<Element, ElementAction, Services>,
    state: KeyPath<State, StackState<Element>> & Sendable,
    action: @escaping @Sendable (Action) -> StackAction<Element, ElementAction>?,
    embed: @escaping @Sendable (StackAction<Element, ElementAction>) -> Action,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> SideEffect<State, Action, Services> where State: Sendable, Element: Sendable, ElementAction: Sendable {
    liftStack(middleware, selects: nil, state: state, action: action, embed: embed, site: "\(fileID):\(line)")
}

/// Lifts the side effects of a navigation stack's screens, composed in a ``SideEffectBuilder``
/// (such as one per kind of screen, lifted with `scopeMiddleware(_:case:action:embed:)`), to the
/// stack: each runs for its screens' actions, as
/// ``forEachMiddleware(_:state:action:embed:fileID:line:)-(Middleware<Element,ElementAction,Services>,_,_,_,_,_)``
/// lifts one middleware.
///
/// ```swift
/// @SideEffectBuilder<Screen, ScreenAction, Void>
/// var screenSideEffects: [SideEffect<Screen, ScreenAction, Void>] {
///     scopeMiddleware(detailMiddleware, case: { $0.detail }, action: { $0.detail }, embed: ScreenAction.detail)
/// }
///
/// let store = Store(state: AppState(), reducer: appReducer) {
///     forEachMiddleware(screenSideEffects, state: \AppState.path, action: { $0.path }, embed: AppAction.path)
/// }
/// ```
///
/// - Parameters:
///   - sideEffects: The side effects of one screen.
///   - state: The stack in the app state.
///   - action: Returns the stack action embedded in an app action, or `nil`.
///   - embed: Embeds a stack action in an app action, usually the enum case.
///   - fileID: Named in the issue for an unknown id; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: The side effects of the app, statements of its store's ``SideEffectBuilder``.
public func forEachMiddleware<State, Action, Element, ElementAction, Services: Sendable>(
    _ sideEffects: [SideEffect<Element, ElementAction, Services>],
    state: KeyPath<State, StackState<Element>> & Sendable,
    action: @escaping @Sendable (Action) -> StackAction<Element, ElementAction>?,
    embed: @escaping @Sendable (StackAction<Element, ElementAction>) -> Action,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> [SideEffect<State, Action, Services>] where State: Sendable, Element: Sendable, ElementAction: Sendable {
    sideEffects.map { sideEffect in
        liftStack(
            sideEffect.middleware, selects: sideEffect.selects, state: state, action: action, embed: embed,
            site: "\(fileID):\(line)")
    }
}

/// The side effect the stack's `forEachMiddleware` returns; `elementSelects`, the check of a
/// lifted screen side effect, is asked for an action of a screen the stack holds.
private func liftStack<State, Action, Element, ElementAction, Services: Sendable>(
    _ middleware: @escaping Middleware<Element, ElementAction, Services>,
    selects elementSelects: SideEffectSelector<Element, ElementAction>?,
    state: KeyPath<State, StackState<Element>> & Sendable,
    action: @escaping @Sendable (Action) -> StackAction<Element, ElementAction>?,
    embed: @escaping @Sendable (StackAction<Element, ElementAction>) -> Action,
    site: String
) -> SideEffect<State, Action, Services> where State: Sendable, Element: Sendable, ElementAction: Sendable {
    let scope = ScopeToken()
    // Right after each reducer, in the order of the reductions, the check cancels the work of
    // popped screens, and for a screen's action registers the work the middleware will start, in
    // the same critical section: a pop reduced later cancels it. For an action of no screen (or
    // one the screen's own check leaves out), the middleware is not called.
    let selects: SideEffectSelector<State, Action> = { appState, appAction, dispatch in
        let stack = appState[keyPath: state]
        let isPresent = { (id: StackElementID) in stack[id: id] != nil }
        guard case .element(let id, let elementAction) = appAction.flatMap(action) else {
            dispatch.cancellations.cancelRemovedRows(in: scope, isPresent: isPresent)
            return .skipped
        }
        guard let element = stack[id: id] else {
            // An action of a screen that is not there: the middleware reports it.
            dispatch.cancellations.cancelRemovedRows(in: scope, isPresent: isPresent)
            return .selected
        }
        var inner: ChildWorkReservation?
        if let elementSelects {
            let elementDispatch: Dispatcher<ElementAction> = dispatch.scoped(
                embed: { embed(.element(id: id, action: $0)) },
                state: { (appState: State) in appState[keyPath: state][id: id] }, requiringPart: true)
            switch elementSelects(element, elementAction, elementDispatch) {
            case .skipped:
                dispatch.cancellations.cancelRemovedRows(in: scope, isPresent: isPresent)
                return .skipped
            case .selected:
                break
            case .reserved(let reservation):
                inner = reservation
            }
        }
        return .reserved(dispatch.cancellations.reserve(row: id, in: scope, isPresent: isPresent, inner: inner))
    }
    return SideEffect(selects: selects) { appState, appAction, services, dispatch in
        guard case .element(let id, let elementAction) = action(appAction) else { return }
        guard let element = appState[keyPath: state][id: id] else {
            reportMissingChildState(elementAction, what: "no screen of the stack has the id \(id)", site: site)
            return
        }
        let reservation = dispatch.reservation.flatMap { $0.scope == scope.id ? $0 : nil }
        // The screen dismisses itself by popping it and the screens above it, and names its
        // cancellation ids in a namespace of its own.
        let screenWork = CancelKey(ChildWorkID(scope: scope.id, identity: CancelKey(id)))
        let elementDispatch: Dispatcher<ElementAction> = dispatch.reserving(reservation?.inner)
            .dismissing { await dispatch(embed(.popFrom(id: id))) }
            .scopingIDs(to: screenWork)
            .scoped(
                embed: { embed(.element(id: id, action: $0)) },
                state: { (appState: State) in appState[keyPath: state][id: id] }, requiringPart: true)
        let operation: @Sendable () async -> Void = {
            await middleware(element, elementAction, services, elementDispatch)
        }
        guard let reservation else {
            // Not reached through the store's check: the work runs under the screen's id.
            await dispatch.cancellations.run(screenWork, cancelInFlight: false, operation: operation)
            return
        }
        // Registered right after the reducer: cancelled meanwhile by a pop, it never starts.
        await dispatch.cancellations.run(reservation, operation: operation)
    }
}

/// Lifts the middleware of a navigation stack's screens that needs no services to the stack.
///
/// The same as
/// ``forEachMiddleware(_:state:action:embed:fileID:line:)-(Middleware<Element,ElementAction,Services>,_,_,_,_,_)``
/// for a ``PlainMiddleware``.
///
/// - Parameters:
///   - middleware: The middleware of one screen.
///   - state: The stack in the app state.
///   - action: Returns the stack action embedded in an app action, or `nil`.
///   - embed: Embeds a stack action in an app action.
///   - fileID: Named in the issue for an unknown id; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: A side effect of the app, a statement of its store's ``SideEffectBuilder``.
public func forEachMiddleware<State, Action, Element, ElementAction>(
    _ middleware: @escaping PlainMiddleware<Element, ElementAction>,
    state: KeyPath<State, StackState<Element>> & Sendable,
    action: @escaping @Sendable (Action) -> StackAction<Element, ElementAction>?,
    embed: @escaping @Sendable (StackAction<Element, ElementAction>) -> Action,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> SideEffect<State, Action, Void> where State: Sendable, Element: Sendable, ElementAction: Sendable {
    forEachMiddleware(ignoringServices(middleware), state: state, action: action, embed: embed, fileID: fileID, line: line)
}

extension StoreProtocol {
    /// A store of the screen with `id` in a navigation stack, or `nil` when the stack does not
    /// hold it: what a navigation destination shows.
    ///
    /// ```swift
    /// .navigationDestination(for: StackElementID.self) { id in
    ///     if let detail = store.scope(state: \.path, id: id, action: AppAction.path) {
    ///         BookDetailView(store: detail)
    ///     }
    /// }
    /// ```
    ///
    /// The child store dispatches the screen's actions as ``StackAction/element(id:action:)``
    /// actions of the stack. Once the screen is popped it keeps its last state, so that it can
    /// still draw while it slides away; actions sent to it from then on are reported and
    /// dropped.
    ///
    /// - Parameters:
    ///   - state: The stack.
    ///   - id: The id of the screen.
    ///   - action: Embeds a stack action in an action of this store, usually the enum case
    ///     (`AppAction.path`).
    ///   - fileID: Named in the issue for an action sent once the screen is gone; the caller's.
    ///   - line: Named in that issue; the caller's.
    /// - Returns: The screen's child store, or `nil` when no screen has `id`.
    public func scope<Element: Sendable, ElementAction: Sendable>(
        state: KeyPath<State, StackState<Element>>,
        id: StackElementID,
        action: @escaping @Sendable (StackAction<Element, ElementAction>) -> Action,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> ChildStore<Element, ElementAction>? where State: Sendable {
        scopeStackElement(state: state, id: id, embed: action, site: "\(fileID):\(line)")
    }

    /// A store for every screen of a navigation stack, from the bottom of the stack up.
    ///
    /// ```swift
    /// for screen in store.scope(forEach: \.path, action: AppAction.path) {
    ///     await screen.dispatch(.refresh)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - state: The stack.
    ///   - action: Embeds a stack action in an action of this store.
    ///   - fileID: Named in the issue for an action sent once a screen is gone; the caller's.
    ///   - line: Named in that issue; the caller's.
    /// - Returns: One child store per screen, each the one
    ///   ``scope(state:id:action:fileID:line:)->ChildStore<Element,ElementAction>?`` returns for
    ///   its id from the same place.
    public func scope<Element: Sendable, ElementAction: Sendable>(
        forEach state: KeyPath<State, StackState<Element>>,
        action: @escaping @Sendable (StackAction<Element, ElementAction>) -> Action,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> [ChildStore<Element, ElementAction>] where State: Sendable {
        // Observes the stack's ids alone, as the rows' scope(forEach:) does.
        readObserved(state.appending(path: \StackState<Element>.ids), in: self).compactMap { id in
            scopeStackElement(state: state, id: id, embed: action, site: "\(fileID):\(line)")
        }
    }
}

extension StoreProtocol {
    /// The child store of the screen with `id`, from the cache when one is alive.
    func scopeStackElement<Element: Sendable, ElementAction: Sendable>(
        state: KeyPath<State, StackState<Element>>,
        id: StackElementID,
        embed: @escaping @Sendable (StackAction<Element, ElementAction>) -> Action,
        site: String
    ) -> ChildStore<Element, ElementAction>? where State: Sendable {
        makeChild(
            .optional(state.appending(path: \StackState<Element>.[id: id])),
            embed: { embed(.element(id: id, action: $0)) },
            cacheKey: state, id: AnyHashable(id), site: site)
    }
}
