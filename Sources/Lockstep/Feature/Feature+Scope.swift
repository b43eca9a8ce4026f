extension Feature {
    /// Lifts a child feature to a part of this feature's state that is always there, reducer and
    /// side effects in one call, as TCA's `Scope`.
    ///
    /// The child's reducer runs on `state` for the actions `action` extracts, before this
    /// feature's reducer; the child's side effects see the child's part and actions, and take
    /// the part of the services `services` returns (a key path such as `\.search` works).
    ///
    /// - Parameters:
    ///   - state: The child's part of the state.
    ///   - action: Extracts the child's action from an action of this feature, or returns `nil`.
    ///   - embed: Embeds a child action in an action of this feature, usually the enum case.
    ///   - services: The child's services, taken out of this feature's.
    ///   - fileID: Unused by this lift; kept so that every lift reads alike.
    ///   - line: Unused by this lift.
    ///   - child: The child feature.
    /// - Returns: This feature with the child lifted into it.
    public func scope<ChildState: Sendable, ChildAction, ChildServices>(
        state: WritableKeyPath<State, ChildState> & Sendable,
        action: @escaping @Sendable (Action) -> ChildAction?,
        embed: @escaping @Sendable (ChildAction) -> Action,
        services: @escaping @Sendable (Services) -> ChildServices,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ child: () -> Feature<ChildState, ChildAction, ChildServices>
    ) -> Feature where State: Sendable {
        let child = child()
        let childReducer = child.reducer
        return adding(
            childReducer: { parentState, parentAction in
                guard let childAction = action(parentAction) else { return }
                childReducer(&parentState[keyPath: state], childAction)
            },
            childSideEffects: scopeMiddleware(
                child.sideEffects.map { $0.pullback(services: services) }, state: state, action: action, embed: embed))
    }

    /// Lifts a child feature whose services are this feature's to a part of the state that is
    /// always there.
    ///
    /// The same as the `scope` that takes `services`, with the services passed as they are.
    ///
    /// - Parameters:
    ///   - state: The child's part of the state.
    ///   - action: Extracts the child's action from an action of this feature, or returns `nil`.
    ///   - embed: Embeds a child action in an action of this feature.
    ///   - fileID: Unused by this lift.
    ///   - line: Unused by this lift.
    ///   - child: The child feature.
    /// - Returns: This feature with the child lifted into it.
    public func scope<ChildState: Sendable, ChildAction>(
        state: WritableKeyPath<State, ChildState> & Sendable,
        action: @escaping @Sendable (Action) -> ChildAction?,
        embed: @escaping @Sendable (ChildAction) -> Action,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ child: () -> Feature<ChildState, ChildAction, Services>
    ) -> Feature where State: Sendable {
        scope(state: state, action: action, embed: embed, services: { $0 }, fileID: fileID, line: line, child)
    }

    /// Lifts a child feature that needs no services to a part of the state that is always there,
    /// in a feature that has services.
    ///
    /// - Parameters:
    ///   - state: The child's part of the state.
    ///   - action: Extracts the child's action from an action of this feature, or returns `nil`.
    ///   - embed: Embeds a child action in an action of this feature.
    ///   - fileID: Unused by this lift.
    ///   - line: Unused by this lift.
    ///   - child: The child feature.
    /// - Returns: This feature with the child lifted into it.
    @_disfavoredOverload
    public func scope<ChildState: Sendable, ChildAction>(
        state: WritableKeyPath<State, ChildState> & Sendable,
        action: @escaping @Sendable (Action) -> ChildAction?,
        embed: @escaping @Sendable (ChildAction) -> Action,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ child: () -> Feature<ChildState, ChildAction, Void>
    ) -> Feature where State: Sendable {
        scope(state: state, action: action, embed: embed, services: { _ in () }, fileID: fileID, line: line, child)
    }
}
