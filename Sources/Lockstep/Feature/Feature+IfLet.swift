extension Feature {
    /// Lifts a child feature to an optional part of this feature's state, reducer and side
    /// effects in one call, as TCA's `ifLet`.
    ///
    /// While the part is there, the child's reducer runs on it for the actions `action` extracts,
    /// before this feature's reducer, and the child's side effects run under a cancellation id of
    /// the child's own: its work is cancelled when the part becomes `nil` or is replaced by one
    /// with another `id`. A child action that this feature's reducer answers by setting the part
    /// to `nil` is not reported, and the work the child's side effects would start for it never
    /// starts. A child action that arrives while the part is already `nil` is reported once.
    ///
    /// - Parameters:
    ///   - state: The child's optional part of the state.
    ///   - action: Extracts the child's action from an action of this feature, or returns `nil`.
    ///   - embed: Embeds a child action in an action of this feature, usually the enum case.
    ///   - services: The child's services, taken out of this feature's (a key path works).
    ///   - fileID: Named in the issue for a child action without state; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - child: The child feature.
    /// - Returns: This feature with the child lifted into it.
    public func ifLet<ChildState: Sendable, ChildAction, ChildServices>(
        state: WritableKeyPath<State, ChildState?> & Sendable,
        action: @escaping @Sendable (Action) -> ChildAction?,
        embed: @escaping @Sendable (ChildAction) -> Action,
        services: @escaping @Sendable (Services) -> ChildServices,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ child: () -> Feature<ChildState, ChildAction, ChildServices>
    ) -> Feature where State: Sendable, Services: Sendable {
        let child = child()
        let childReducer = child.reducer
        let site = "\(fileID):\(line)"
        return adding(
            childReducer: { parentState, parentAction in
                guard let childAction = action(parentAction) else { return }
                guard parentState[keyPath: state] != nil else {
                    reportMissingFeatureState(childAction, what: "its optional state is nil", site: site)
                    return
                }
                childReducer(&parentState[keyPath: state]!, childAction)
            },
            // The reducer reports a late action; one that the parent answered by closing the
            // child is no one's mistake: its side effects skip it silently.
            childSideEffects: child.sideEffects.map { sideEffect in
                let lifted = sideEffect.pullback(services: services)
                return liftIfLet(
                    lifted.middleware, selects: lifted.selects, state: state, action: action, embed: embed,
                    reportsMissingState: false, site: site)
            })
    }

    /// Lifts a child feature whose services are this feature's to an optional part of the
    /// state.
    ///
    /// - Parameters:
    ///   - state: The child's optional part of the state.
    ///   - action: Extracts the child's action from an action of this feature, or returns `nil`.
    ///   - embed: Embeds a child action in an action of this feature.
    ///   - fileID: Named in the issue for a child action without state; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - child: The child feature.
    /// - Returns: This feature with the child lifted into it.
    public func ifLet<ChildState: Sendable, ChildAction>(
        state: WritableKeyPath<State, ChildState?> & Sendable,
        action: @escaping @Sendable (Action) -> ChildAction?,
        embed: @escaping @Sendable (ChildAction) -> Action,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ child: () -> Feature<ChildState, ChildAction, Services>
    ) -> Feature where State: Sendable, Services: Sendable {
        ifLet(state: state, action: action, embed: embed, services: { $0 }, fileID: fileID, line: line, child)
    }

    /// Lifts a child feature that needs no services to an optional part of the state.
    ///
    /// - Parameters:
    ///   - state: The child's optional part of the state.
    ///   - action: Extracts the child's action from an action of this feature, or returns `nil`.
    ///   - embed: Embeds a child action in an action of this feature.
    ///   - fileID: Named in the issue for a child action without state; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - child: The child feature.
    /// - Returns: This feature with the child lifted into it.
    @_disfavoredOverload
    public func ifLet<ChildState: Sendable, ChildAction>(
        state: WritableKeyPath<State, ChildState?> & Sendable,
        action: @escaping @Sendable (Action) -> ChildAction?,
        embed: @escaping @Sendable (ChildAction) -> Action,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ child: () -> Feature<ChildState, ChildAction, Void>
    ) -> Feature where State: Sendable, Services: Sendable {
        ifLet(state: state, action: action, embed: embed, services: { _ in () }, fileID: fileID, line: line, child)
    }
}
