extension Feature {
    /// Lifts a child feature to one case of this feature's enum state, reducer and side effects
    /// in one call, as TCA's `ifCaseLet`.
    ///
    /// While the state is the case, the child's reducer runs on the case's value for the actions
    /// `action` extracts, before this feature's reducer, and the child's side effects see the
    /// case's value and actions. A child action that this feature's reducer answers by switching
    /// to another case (a login that succeeds) is not reported, and the child's side effects skip
    /// it: the child is gone. A child action that arrives while the state is already another case
    /// is reported once, naming this call's site.
    ///
    /// - Parameters:
    ///   - extract: Returns the case's value, or `nil` when the state is another case.
    ///   - embedState: Makes the state of the case from a value, the enum case itself.
    ///   - action: Extracts the child's action from an action of this feature, or returns `nil`.
    ///   - embedAction: Embeds a child action in an action of this feature.
    ///   - services: The child's services, taken out of this feature's (a key path works).
    ///   - fileID: Named in the issue for an action of another case; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - child: The child feature.
    /// - Returns: This feature with the child lifted into it.
    public func ifCaseLet<ChildState: Sendable, ChildAction, ChildServices>(
        case extract: @escaping @Sendable (State) -> ChildState?,
        embed embedState: @escaping @Sendable (ChildState) -> State,
        action: @escaping @Sendable (Action) -> ChildAction?,
        embedAction: @escaping @Sendable (ChildAction) -> Action,
        services: @escaping @Sendable (Services) -> ChildServices,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ child: () -> Feature<ChildState, ChildAction, ChildServices>
    ) -> Feature where State: Sendable {
        let child = child()
        let childReducer = child.reducer
        let site = "\(fileID):\(line)"
        return adding(
            childReducer: { state, parentAction in
                guard let childAction = action(parentAction) else { return }
                guard var childState = extract(state) else {
                    reportMissingFeatureState(
                        childAction, what: "the state is another case (\(caseName(of: state)))", site: site)
                    return
                }
                childReducer(&childState, childAction)
                state = embedState(childState)
            },
            childSideEffects: child.sideEffects.map { sideEffect in
                liftCase(sideEffect.pullback(services: services), case: extract, action: action, embed: embedAction)
            })
    }

    /// Lifts a child feature whose services are this feature's to one case of the enum state.
    ///
    /// - Parameters:
    ///   - extract: Returns the case's value, or `nil` when the state is another case.
    ///   - embedState: Makes the state of the case from a value.
    ///   - action: Extracts the child's action from an action of this feature, or returns `nil`.
    ///   - embedAction: Embeds a child action in an action of this feature.
    ///   - fileID: Named in the issue for an action of another case; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - child: The child feature.
    /// - Returns: This feature with the child lifted into it.
    public func ifCaseLet<ChildState: Sendable, ChildAction>(
        case extract: @escaping @Sendable (State) -> ChildState?,
        embed embedState: @escaping @Sendable (ChildState) -> State,
        action: @escaping @Sendable (Action) -> ChildAction?,
        embedAction: @escaping @Sendable (ChildAction) -> Action,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ child: () -> Feature<ChildState, ChildAction, Services>
    ) -> Feature where State: Sendable {
        ifCaseLet(
            case: extract, embed: embedState, action: action, embedAction: embedAction, services: { $0 },
            fileID: fileID, line: line, child)
    }

    /// Lifts a child feature that needs no services to one case of the enum state.
    ///
    /// - Parameters:
    ///   - extract: Returns the case's value, or `nil` when the state is another case.
    ///   - embedState: Makes the state of the case from a value.
    ///   - action: Extracts the child's action from an action of this feature, or returns `nil`.
    ///   - embedAction: Embeds a child action in an action of this feature.
    ///   - fileID: Named in the issue for an action of another case; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - child: The child feature.
    /// - Returns: This feature with the child lifted into it.
    @_disfavoredOverload
    public func ifCaseLet<ChildState: Sendable, ChildAction>(
        case extract: @escaping @Sendable (State) -> ChildState?,
        embed embedState: @escaping @Sendable (ChildState) -> State,
        action: @escaping @Sendable (Action) -> ChildAction?,
        embedAction: @escaping @Sendable (ChildAction) -> Action,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ child: () -> Feature<ChildState, ChildAction, Void>
    ) -> Feature where State: Sendable {
        ifCaseLet(
            case: extract, embed: embedState, action: action, embedAction: embedAction, services: { _ in () },
            fileID: fileID, line: line, child)
    }
}

/// A side effect of one case's feature lifted to the enum. It runs for the case's actions while
/// the state is the case; an action of the case when the state is another case is skipped
/// silently (the lifted reducer reported it if it was late), and the lifts among the case's side
/// effects record the presence of their children after every reduction while the state is the
/// case.
private func liftCase<State: Sendable, Action, CaseState: Sendable, CaseAction, Services>(
    _ sideEffect: SideEffect<CaseState, CaseAction, Services>,
    case extract: @escaping @Sendable (State) -> CaseState?,
    action: @escaping @Sendable (Action) -> CaseAction?,
    embed: @escaping @Sendable (CaseAction) -> Action
) -> SideEffect<State, Action, Services> {
    let middleware = sideEffect.middleware
    let caseSelects = sideEffect.selects
    let caseDispatch = { @Sendable (dispatch: Dispatcher<Action>) -> Dispatcher<CaseAction> in
        dispatch.scoped(embed: embed, state: extract, requiringPart: true)
    }
    return SideEffect(
        { state, enumAction, services, dispatch in
            guard let caseAction = action(enumAction), let caseState = extract(state) else { return }
            await middleware(caseState, caseAction, services, caseDispatch(dispatch))
        },
        selects: { state, enumAction, dispatch in
            guard let caseState = extract(state) else { return .skipped }
            guard let caseAction = enumAction.flatMap(action) else {
                if let caseSelects { _ = caseSelects(caseState, nil, caseDispatch(dispatch)) }
                return .skipped
            }
            guard let caseSelects else { return .selected }
            return caseSelects(caseState, caseAction, caseDispatch(dispatch))
        })
}
