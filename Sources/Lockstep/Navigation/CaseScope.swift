/// Lifts the reducer of one case of an enum state to the enum: one call a case, for the
/// destinations of a screen or the kinds of screen of a navigation stack.
///
/// A screen that presents several kinds of child keeps one optional enum of them, and its
/// destination actions are an enum with a case for each kind. The reducer of the enum combines
/// one lifted reducer per case, each running for its case's actions while the state is that
/// case:
///
/// ```swift
/// let destinationReducer: InPlaceReducer<Destination, DestinationAction> = combineReducers(
///     scopeReducer(editorReducer, case: { $0.editor }, embed: Destination.editor, action: { $0.editor })
/// )
/// ```
///
/// The case's value is taken out, changed by `reducer`, and put back with `embed`. An action of
/// the case that arrives while the state is another case (a late answer for a destination that
/// was replaced) is reported as an issue and changes nothing. With LockstepCasePaths, a
/// `@CasePathable` enum is lifted with case key paths instead:
/// `scopeReducer(editorReducer, state: \.editor, action: \.editor)`.
///
/// - Parameters:
///   - reducer: The reducer of the case's value.
///   - extract: Returns the value of the case, or `nil` when the state is another case.
///   - embed: Makes the state of the case from a value, the enum case itself.
///   - action: Returns the case's action embedded in an action of the enum, or `nil`.
///   - fileID: The file the issue for an action of another case names; the caller's.
///   - line: The line the issue names; the caller's.
/// - Returns: An in-place reducer of the enum.
public func scopeReducer<State, Action, CaseState, CaseAction>(
    _ reducer: @escaping InPlaceReducer<CaseState, CaseAction>,
    case extract: @escaping @Sendable (State) -> CaseState?,
    embed: @escaping @Sendable (CaseState) -> State,
    action: @escaping @Sendable (Action) -> CaseAction?,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> InPlaceReducer<State, Action> {
    let site = "\(fileID):\(line)"
    return { state, enumAction in
        guard let caseAction = action(enumAction) else { return }
        guard var caseState = extract(state) else {
            reportMissingChildState(caseAction, what: "the state is another case (\(caseName(of: state)))", site: site)
            return
        }
        reducer(&caseState, caseAction)
        state = embed(caseState)
    }
}

/// Lifts the value-form reducer of one case of an enum state to the enum.
///
/// The same as the in-place
/// ``scopeReducer(_:case:embed:action:fileID:line:)-(InPlaceReducer<CaseState,CaseAction>,_,_,_,_,_)``.
///
/// - Parameters:
///   - reducer: The reducer of the case's value.
///   - extract: Returns the value of the case, or `nil` when the state is another case.
///   - embed: Makes the state of the case from a value, the enum case itself.
///   - action: Returns the case's action embedded in an action of the enum, or `nil`.
///   - fileID: The file the issue for an action of another case names; the caller's.
///   - line: The line the issue names; the caller's.
/// - Returns: An in-place reducer of the enum.
public func scopeReducer<State, Action, CaseState, CaseAction>(
    _ reducer: @escaping Reducer<CaseState, CaseAction>,
    case extract: @escaping @Sendable (State) -> CaseState?,
    embed: @escaping @Sendable (CaseState) -> State,
    action: @escaping @Sendable (Action) -> CaseAction?,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> InPlaceReducer<State, Action> {
    scopeReducer(inPlaceReducer(reducer), case: extract, embed: embed, action: action, fileID: fileID, line: line)
}

/// Lifts the middleware of one case of an enum state to the enum: it runs for the case's
/// actions while the state is that case.
///
/// The side effects of a screen's destinations compose one per case in a ``SideEffectBuilder``,
/// and are lifted to the screen with a presentation form of `ifLetMiddleware`, which cancels a
/// destination's work when it goes (or becomes another case) and lets it dismiss itself:
///
/// ```swift
/// @SideEffectBuilder<Destination, DestinationAction, Void>
/// var destinationSideEffects: [SideEffect<Destination, DestinationAction, Void>] {
///     scopeMiddleware(editorMiddleware, case: { $0.editor }, action: { $0.editor }, embed: DestinationAction.editor)
/// }
/// ```
///
/// For an action of another case, the middleware is not called: the store checks `action`
/// before it calls anything.
///
/// An action of the case that arrives while the state is another case is reported as an issue.
/// One that the case's reducer handled, after which the parent's reducer switched to another case
/// in the same reduction (a login that succeeds), is not: the middleware is not called for it,
/// since its case is gone.
///
/// - Parameters:
///   - middleware: The middleware of the case.
///   - extract: Returns the value of the case, or `nil` when the state is another case.
///   - action: Returns the case's action embedded in an action of the enum, or `nil`.
///   - embed: Embeds an action of the case in an action of the enum.
///   - fileID: Named in the issue for an action of another case; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: A side effect of the enum, a statement of a ``SideEffectBuilder``.
public func scopeMiddleware<State, Action, CaseState, CaseAction, Services>(
    _ middleware: @escaping Middleware<CaseState, CaseAction, Services>,
    case extract: @escaping @Sendable (State) -> CaseState?,
    action: @escaping @Sendable (Action) -> CaseAction?,
    embed: @escaping @Sendable (CaseAction) -> Action,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> SideEffect<State, Action, Services> where State: Sendable, CaseState: Sendable {
    let site = "\(fileID):\(line)"
    let scope = ScopeToken()
    return SideEffect(
        { state, enumAction, services, dispatch in
            guard let caseAction = action(enumAction) else { return }
            guard let caseState = extract(state) else {
                reportMissingChildState(
                    caseAction, what: "the state is another case (\(caseName(of: state)))", site: site,
                    lift: "the side effects lifted")
                return
            }
            let caseDispatch: Dispatcher<CaseAction> = dispatch.scoped(embed: embed, state: extract, requiringPart: true)
            await middleware(caseState, caseAction, services, caseDispatch)
        },
        selects: { state, enumAction, dispatch in
            let isPresent = extract(state) != nil
            let wasPresent = dispatch.cancellations.recordCasePresence(isPresent, in: scope)
            guard enumAction.flatMap(action) != nil else { return .skipped }
            // The case's reducer handled the action, then the parent's switched to another case
            // in the same reduction: nothing arrived late, and the case is gone.
            if !isPresent && wasPresent { return .skipped }
            return .selected
        })
}

/// Lifts the middleware of one case of an enum state that needs no services to the enum.
///
/// The same as
/// ``scopeMiddleware(_:case:action:embed:fileID:line:)-(Middleware<CaseState,CaseAction,Services>,_,_,_,_,_)``
/// for a ``PlainMiddleware``.
///
/// - Parameters:
///   - middleware: The middleware of the case.
///   - extract: Returns the value of the case, or `nil` when the state is another case.
///   - action: Returns the case's action embedded in an action of the enum, or `nil`.
///   - embed: Embeds an action of the case in an action of the enum.
///   - fileID: Named in the issue for an action of another case; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: A side effect of the enum, a statement of a ``SideEffectBuilder``.
public func scopeMiddleware<State, Action, CaseState, CaseAction>(
    _ middleware: @escaping PlainMiddleware<CaseState, CaseAction>,
    case extract: @escaping @Sendable (State) -> CaseState?,
    action: @escaping @Sendable (Action) -> CaseAction?,
    embed: @escaping @Sendable (CaseAction) -> Action,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> SideEffect<State, Action, Void> where State: Sendable, CaseState: Sendable {
    scopeMiddleware(ignoringServices(middleware), case: extract, action: action, embed: embed, fileID: fileID, line: line)
}

/// Lifts the side effects of one case of an enum state, composed in a ``SideEffectBuilder``, to
/// the enum: each runs for the case's actions while the state is that case, and each lifted one
/// among them is checked as it is in the case's own store.
///
/// For a stack screen or a destination whose feature has side effects of its own and of its
/// children:
///
/// ```swift
/// @SideEffectBuilder<Path, PathAction, Services>
/// var pathSideEffects: [SideEffect<Path, PathAction, Services>] {
///     scopeMiddleware(detailSideEffects, case: { $0.detail }, action: { $0.detail }, embed: PathAction.detail)
///     scopeMiddleware(meetingMiddleware, case: { $0.meeting }, action: { $0.meeting }, embed: PathAction.meeting)
/// }
/// ```
///
/// For an action of another case, none of them is called. An action of the case that arrives
/// while the state is another case is reported as an issue, once; one that the case's reducer
/// handled before the parent's reducer switched to another case in the same reduction is not, and
/// none of them is called for it.
///
/// - Parameters:
///   - sideEffects: The side effects of the case.
///   - extract: Returns the value of the case, or `nil` when the state is another case.
///   - action: Returns the case's action embedded in an action of the enum, or `nil`.
///   - embed: Embeds an action of the case in an action of the enum.
///   - fileID: Named in the issue for an action of another case; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: The side effects of the enum, statements of a ``SideEffectBuilder``.
public func scopeMiddleware<State, Action, CaseState, CaseAction, Services>(
    _ sideEffects: [SideEffect<CaseState, CaseAction, Services>],
    case extract: @escaping @Sendable (State) -> CaseState?,
    action: @escaping @Sendable (Action) -> CaseAction?,
    embed: @escaping @Sendable (CaseAction) -> Action,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> [SideEffect<State, Action, Services>] where State: Sendable, CaseState: Sendable {
    let site = "\(fileID):\(line)"
    let caseDispatch = { @Sendable (dispatch: Dispatcher<Action>) -> Dispatcher<CaseAction> in
        dispatch.scoped(embed: embed, state: extract, requiringPart: true)
    }
    return sideEffects.enumerated().map { index, sideEffect in
        let middleware = sideEffect.middleware
        let caseSelects = sideEffect.selects
        let scope = ScopeToken()
        return SideEffect(
            { state, enumAction, services, dispatch in
                guard let caseAction = action(enumAction) else { return }
                guard let caseState = extract(state) else {
                    // One report for the action, from the first of the case's side effects.
                    if index == 0 {
                        reportMissingChildState(
                            caseAction, what: "the state is another case (\(caseName(of: state)))", site: site,
                            lift: "the side effects lifted")
                    }
                    return
                }
                await middleware(caseState, caseAction, services, caseDispatch(dispatch))
            },
            selects: { state, enumAction, dispatch in
                let caseState = extract(state)
                let wasPresent = dispatch.cancellations.recordCasePresence(caseState != nil, in: scope)
                guard let caseAction = enumAction.flatMap(action) else {
                    // An action of another case, or of the app: the lifts among the case's side
                    // effects record the presence of their children while the state is the case.
                    if let caseSelects, let caseState {
                        _ = caseSelects(caseState, nil, caseDispatch(dispatch))
                    }
                    return .skipped
                }
                guard let caseState else {
                    // Handled by the case's reducer before the parent's switched away in the same
                    // reduction: not late, and the case is gone. Otherwise reported, once.
                    return index == 0 && !wasPresent ? .selected : .skipped
                }
                guard let caseSelects else { return .selected }
                return caseSelects(caseState, caseAction, caseDispatch(dispatch))
            })
    }
}

/// The name of the case an enum value is, for messages: `alert`.
func caseName(of value: Any) -> String {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .enum else { return String(describing: value) }
    return mirror.children.first?.label ?? String(describing: value)
}
