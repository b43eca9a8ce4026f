extension Feature {
    /// Lifts a screen feature to a navigation stack of this feature's state, reducer and side
    /// effects in one call, as TCA's `forEach(\.path, action: \.path)`.
    ///
    /// ```swift
    /// let appFeature = Feature<AppState, AppAction, AppServices>(reducer: appCoreReducer)
    ///     .forEach(state: \.path, action: { $0.path }, embed: AppAction.path, services: \.books) {
    ///         bookDetailFeature
    ///     }
    /// ```
    ///
    /// A push appends the screen's state with a new id. A screen's action runs the screen's
    /// reducer on that screen, before this feature's reducer, and the screen's side effects under
    /// a cancellation id of the screen's own, cancelled when the screen leaves the stack. A pop
    /// runs after this feature's reducer, so the parent sees the screen it pops. A screen action
    /// that this feature's reducer answers by removing the screen (a screen's "delete" handled by
    /// the parent) is not reported, and the screen's side effects skip it; an action for a screen
    /// that is already gone is reported once, naming this call.
    ///
    /// - Parameters:
    ///   - state: The navigation stack in the state.
    ///   - action: Extracts the stack action from an action of this feature, or returns `nil`.
    ///   - embed: Embeds a stack action in an action of this feature, usually the enum case.
    ///   - services: The screen's services, taken out of this feature's (a key path works).
    ///   - fileID: Named in the issue for an unknown screen; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - screen: The screen feature.
    /// - Returns: This feature with the stack's screens lifted into it.
    public func forEach<Element: Sendable, ElementAction: Sendable, ScreenServices>(
        state: WritableKeyPath<State, StackState<Element>> & Sendable,
        action: @escaping @Sendable (Action) -> StackAction<Element, ElementAction>?,
        embed: @escaping @Sendable (StackAction<Element, ElementAction>) -> Action,
        services: @escaping @Sendable (Services) -> ScreenServices,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ screen: () -> Feature<Element, ElementAction, ScreenServices>
    ) -> Feature where State: Sendable, Services: Sendable {
        let screen = screen()
        // One reducer for pushes and screen actions, before the parent's; one for pops, after it.
        func stackReducer(forPops pops: Bool) -> InPlaceReducer<State, Action> {
            forEachReducer(
                screen.reducer, state: state,
                action: { (parentAction: Action) -> StackAction<Element, ElementAction>? in
                    guard let stackAction = action(parentAction), stackAction.isPop == pops else { return nil }
                    return stackAction
                },
                fileID: fileID, line: line)
        }
        let lifted = forEachMiddleware(
            screen.sideEffects.map { $0.pullback(services: services) },
            state: state, action: action, embed: embed, fileID: fileID, line: line)
        return adding(
            childReducer: stackReducer(forPops: false),
            afterParent: stackReducer(forPops: true),
            // A screen action for a screen that is gone (removed by the parent's reducer in the
            // same step, or reported by the reducer above) is skipped silently.
            childSideEffects: lifted.map { sideEffect in
                sideEffect.skippingActionsOfGoneChildren { parentState, parentAction in
                    guard case .element(let id, _)? = action(parentAction) else { return false }
                    return parentState[keyPath: state][id: id] == nil
                }
            })
    }

    /// Lifts a screen feature whose services are this feature's to a navigation stack.
    ///
    /// - Parameters:
    ///   - state: The navigation stack in the state.
    ///   - action: Extracts the stack action from an action of this feature, or returns `nil`.
    ///   - embed: Embeds a stack action in an action of this feature.
    ///   - fileID: Named in the issue for an unknown screen; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - screen: The screen feature.
    /// - Returns: This feature with the stack's screens lifted into it.
    public func forEach<Element: Sendable, ElementAction: Sendable>(
        state: WritableKeyPath<State, StackState<Element>> & Sendable,
        action: @escaping @Sendable (Action) -> StackAction<Element, ElementAction>?,
        embed: @escaping @Sendable (StackAction<Element, ElementAction>) -> Action,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ screen: () -> Feature<Element, ElementAction, Services>
    ) -> Feature where State: Sendable, Services: Sendable {
        forEach(state: state, action: action, embed: embed, services: { $0 }, fileID: fileID, line: line, screen)
    }

    /// Lifts a screen feature that needs no services to a navigation stack.
    ///
    /// - Parameters:
    ///   - state: The navigation stack in the state.
    ///   - action: Extracts the stack action from an action of this feature, or returns `nil`.
    ///   - embed: Embeds a stack action in an action of this feature.
    ///   - fileID: Named in the issue for an unknown screen; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - screen: The screen feature.
    /// - Returns: This feature with the stack's screens lifted into it.
    @_disfavoredOverload
    public func forEach<Element: Sendable, ElementAction: Sendable>(
        state: WritableKeyPath<State, StackState<Element>> & Sendable,
        action: @escaping @Sendable (Action) -> StackAction<Element, ElementAction>?,
        embed: @escaping @Sendable (StackAction<Element, ElementAction>) -> Action,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ screen: () -> Feature<Element, ElementAction, Void>
    ) -> Feature where State: Sendable, Services: Sendable {
        forEach(state: state, action: action, embed: embed, services: { _ in () }, fileID: fileID, line: line, screen)
    }
}

extension StackAction {
    /// Whether this is a pop.
    var isPop: Bool {
        if case .popFrom = self { true } else { false }
    }
}
