extension Feature {
    /// Lifts a presented child feature (a sheet, a destination) to an optional part of this
    /// feature's state, reducer and side effects in one call, as TCA's
    /// `ifLet(\.$destination, action: \.destination)`.
    ///
    /// On ``PresentationAction/presented(_:)`` the child's reducer runs on the part before this
    /// feature's reducer; on ``PresentationAction/dismiss`` this feature's reducer sees the child
    /// one last time, then the part is set to `nil`. An alert or a dialog is closed after its
    /// button's action. The child's side effects run under a cancellation id of the child's own,
    /// and its dispatcher's ``Dispatcher/dismiss(fileID:filePath:line:column:)`` dispatches the
    /// dismissal. A child action that this feature's reducer answers by closing the child is not
    /// reported; one that arrives while the part is already `nil` is, once.
    ///
    /// - Parameters:
    ///   - state: The child's optional part of the state.
    ///   - action: Returns the presentation action embedded in an action of this feature.
    ///   - embed: Embeds a presentation action in an action of this feature.
    ///   - services: The child's services, taken out of this feature's (a key path works).
    ///   - fileID: Named in the issue for a child action without state; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - child: The child feature.
    /// - Returns: This feature with the child lifted into it.
    public func ifLet<ChildState: Sendable, ChildAction, ChildServices>(
        state: WritableKeyPath<State, ChildState?> & Sendable,
        action: @escaping @Sendable (Action) -> PresentationAction<ChildAction>?,
        embed: @escaping @Sendable (PresentationAction<ChildAction>) -> Action,
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
                guard case .presented(let childAction) = action(parentAction) else { return }
                guard parentState[keyPath: state] != nil else {
                    reportMissingFeatureState(childAction, what: "its optional state is nil", site: site)
                    return
                }
                childReducer(&parentState[keyPath: state]!, childAction)
            },
            afterParent: closingPresented(state: state, action: action),
            childSideEffects: ifLetMiddleware(
                child.sideEffects.map { $0.pullback(services: services) }, state: state, action: action, embed: embed,
                fileID: fileID, line: line))
    }

    /// Lifts a presented child feature whose services are this feature's.
    ///
    /// - Parameters:
    ///   - state: The child's optional part of the state.
    ///   - action: Returns the presentation action embedded in an action of this feature.
    ///   - embed: Embeds a presentation action in an action of this feature.
    ///   - fileID: Named in the issue for a child action without state; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - child: The child feature.
    /// - Returns: This feature with the child lifted into it.
    public func ifLet<ChildState: Sendable, ChildAction>(
        state: WritableKeyPath<State, ChildState?> & Sendable,
        action: @escaping @Sendable (Action) -> PresentationAction<ChildAction>?,
        embed: @escaping @Sendable (PresentationAction<ChildAction>) -> Action,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ child: () -> Feature<ChildState, ChildAction, Services>
    ) -> Feature where State: Sendable, Services: Sendable {
        ifLet(state: state, action: action, embed: embed, services: { $0 }, fileID: fileID, line: line, child)
    }

    /// Lifts a presented child feature that needs no services.
    ///
    /// - Parameters:
    ///   - state: The child's optional part of the state.
    ///   - action: Returns the presentation action embedded in an action of this feature.
    ///   - embed: Embeds a presentation action in an action of this feature.
    ///   - fileID: Named in the issue for a child action without state; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - child: The child feature.
    /// - Returns: This feature with the child lifted into it.
    @_disfavoredOverload
    public func ifLet<ChildState: Sendable, ChildAction>(
        state: WritableKeyPath<State, ChildState?> & Sendable,
        action: @escaping @Sendable (Action) -> PresentationAction<ChildAction>?,
        embed: @escaping @Sendable (PresentationAction<ChildAction>) -> Action,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ child: () -> Feature<ChildState, ChildAction, Void>
    ) -> Feature where State: Sendable, Services: Sendable {
        ifLet(state: state, action: action, embed: embed, services: { _ in () }, fileID: fileID, line: line, child)
    }
}

extension Feature {
    /// Lifts an alert or a confirmation dialog of this feature, which has no reducer of its own:
    /// this feature's reducer handles its buttons' actions, then the part is set to `nil`, as
    /// on ``PresentationAction/dismiss``; as TCA's `ifLet(\.$alert, action: \.alert)`.
    ///
    /// - Parameters:
    ///   - state: The optional alert or dialog in the state.
    ///   - action: Returns the presentation action embedded in an action of this feature.
    ///   - fileID: Named in the issue for a button action without an alert; the caller's.
    ///   - line: Named in that issue; the caller's.
    /// - Returns: This feature with the alert or dialog lifted into it.
    public func ifLet<ChildState, ChildAction>(
        state: WritableKeyPath<State, ChildState?> & Sendable,
        action: @escaping @Sendable (Action) -> PresentationAction<ChildAction>?,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Feature {
        let site = "\(fileID):\(line)"
        return adding(
            childReducer: { parentState, parentAction in
                guard case .presented(let childAction) = action(parentAction), parentState[keyPath: state] == nil
                else { return }
                reportMissingFeatureState(childAction, what: "its optional state is nil", site: site)
            },
            afterParent: closingPresented(state: state, action: action),
            childSideEffects: [])
    }
}

/// Closes a presented child after the parent's reducer: on its dismissal, and after a button of
/// an alert or a dialog.
private func closingPresented<State, Action, ChildState, ChildAction>(
    state: WritableKeyPath<State, ChildState?> & Sendable,
    action: @escaping @Sendable (Action) -> PresentationAction<ChildAction>?
) -> InPlaceReducer<State, Action> {
    { parentState, parentAction in
        switch action(parentAction) {
        case nil:
            return
        case .dismiss:
            parentState[keyPath: state] = nil
        case .presented:
            if let presented = parentState[keyPath: state], isDismissedByItsButtons(presented) {
                parentState[keyPath: state] = nil
            }
        }
    }
}
