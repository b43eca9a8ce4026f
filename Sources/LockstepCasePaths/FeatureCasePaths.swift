import CasePaths
import Lockstep

// The Feature lifts of Lockstep, taking case key paths of `@CasePathable` actions (and, for a
// case of an enum state, of the state): one key path both extracts and embeds, as in TCA's
// `Scope(state: \.search, action: \.search)` and `ifCaseLet(\.login, action: \.login)`.

extension Feature where Action: CasePathable & SendableMetatype {
    /// Lifts a child feature to a part of the state that is always there, for the actions
    /// of the case `action` names; the same as Lockstep's `scope(state:action:embed:…)`.
    ///
    /// - Parameters:
    ///   - state: The child's part of the state.
    ///   - action: The case of this feature's action that embeds the child's actions.
    ///   - services: The child's services, taken out of this feature's (a key path works).
    ///   - fileID: Unused by this lift.
    ///   - line: Unused by this lift.
    ///   - child: The child feature.
    /// - Returns: This feature with the child lifted into it.
    public func scope<ChildState: Sendable, ChildAction, ChildServices>(
        state: WritableKeyPath<State, ChildState> & Sendable,
        action: CaseKeyPath<Action, ChildAction> & Sendable,
        services: @escaping @Sendable (Services) -> ChildServices,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ child: () -> Feature<ChildState, ChildAction, ChildServices>
    ) -> Feature where State: Sendable {
        scope(
            state: state, action: { $0[case: action] }, embed: { action($0) }, services: services,
            fileID: fileID, line: line, child)
    }

    /// Lifts a child feature to an optional part of the state, for the actions of the
    /// case `action` names; the same as Lockstep's `ifLet(state:action:embed:…)`.
    ///
    /// - Parameters:
    ///   - state: The child's optional part of the state.
    ///   - action: The case of this feature's action that embeds the child's actions.
    ///   - services: The child's services, taken out of this feature's (a key path works).
    ///   - fileID: Named in the issue for a child action without state; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - child: The child feature.
    /// - Returns: This feature with the child lifted into it.
    public func ifLet<ChildState: Sendable, ChildAction, ChildServices>(
        state: WritableKeyPath<State, ChildState?> & Sendable,
        action: CaseKeyPath<Action, ChildAction> & Sendable,
        services: @escaping @Sendable (Services) -> ChildServices,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ child: () -> Feature<ChildState, ChildAction, ChildServices>
    ) -> Feature where State: Sendable, Services: Sendable {
        ifLet(
            state: state, action: { $0[case: action] }, embed: { action($0) }, services: services,
            fileID: fileID, line: line, child)
    }

    /// Lifts a presented child feature to an optional part of the state, for the
    /// presentation actions of the case `action` names, as TCA's
    /// `ifLet(\.$destination, action: \.destination)`.
    ///
    /// - Parameters:
    ///   - state: The child's optional part of the state.
    ///   - action: The case of this feature's action that embeds the child's presentation actions.
    ///   - services: The child's services, taken out of this feature's (a key path works).
    ///   - fileID: Named in the issue for a child action without state; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - child: The child feature.
    /// - Returns: This feature with the child lifted into it.
    public func ifLet<ChildState: Sendable, ChildAction, ChildServices>(
        state: WritableKeyPath<State, ChildState?> & Sendable,
        action: CaseKeyPath<Action, PresentationAction<ChildAction>> & Sendable,
        services: @escaping @Sendable (Services) -> ChildServices,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ child: () -> Feature<ChildState, ChildAction, ChildServices>
    ) -> Feature where State: Sendable, Services: Sendable {
        ifLet(
            state: state, action: { $0[case: action] }, embed: { action($0) }, services: services,
            fileID: fileID, line: line, child)
    }

    /// Lifts a child feature whose services are this feature's to a part of the state that is always there, for the actions
    /// of the case `action` names; the same as Lockstep's `scope(state:action:embed:…)`.
    ///
    /// - Parameters:
    ///   - state: The child's part of the state.
    ///   - action: The case of this feature's action that embeds the child's actions.
    ///   - fileID: Unused by this lift.
    ///   - line: Unused by this lift.
    ///   - child: The child feature.
    /// - Returns: This feature with the child lifted into it.
    public func scope<ChildState: Sendable, ChildAction>(
        state: WritableKeyPath<State, ChildState> & Sendable,
        action: CaseKeyPath<Action, ChildAction> & Sendable,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ child: () -> Feature<ChildState, ChildAction, Services>
    ) -> Feature where State: Sendable {
        scope(
            state: state, action: { $0[case: action] }, embed: { action($0) },
            fileID: fileID, line: line, child)
    }

    /// Lifts a child feature whose services are this feature's to an optional part of the state, for the actions of the
    /// case `action` names; the same as Lockstep's `ifLet(state:action:embed:…)`.
    ///
    /// - Parameters:
    ///   - state: The child's optional part of the state.
    ///   - action: The case of this feature's action that embeds the child's actions.
    ///   - fileID: Named in the issue for a child action without state; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - child: The child feature.
    /// - Returns: This feature with the child lifted into it.
    public func ifLet<ChildState: Sendable, ChildAction>(
        state: WritableKeyPath<State, ChildState?> & Sendable,
        action: CaseKeyPath<Action, ChildAction> & Sendable,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ child: () -> Feature<ChildState, ChildAction, Services>
    ) -> Feature where State: Sendable, Services: Sendable {
        ifLet(
            state: state, action: { $0[case: action] }, embed: { action($0) },
            fileID: fileID, line: line, child)
    }

    /// Lifts a presented child feature whose services are this feature's to an optional part of the state, for the
    /// presentation actions of the case `action` names, as TCA's
    /// `ifLet(\.$destination, action: \.destination)`.
    ///
    /// - Parameters:
    ///   - state: The child's optional part of the state.
    ///   - action: The case of this feature's action that embeds the child's presentation actions.
    ///   - fileID: Named in the issue for a child action without state; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - child: The child feature.
    /// - Returns: This feature with the child lifted into it.
    public func ifLet<ChildState: Sendable, ChildAction>(
        state: WritableKeyPath<State, ChildState?> & Sendable,
        action: CaseKeyPath<Action, PresentationAction<ChildAction>> & Sendable,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ child: () -> Feature<ChildState, ChildAction, Services>
    ) -> Feature where State: Sendable, Services: Sendable {
        ifLet(
            state: state, action: { $0[case: action] }, embed: { action($0) },
            fileID: fileID, line: line, child)
    }

    /// Lifts a child feature that needs no services to a part of the state that is always there, for the actions
    /// of the case `action` names; the same as Lockstep's `scope(state:action:embed:…)`.
    ///
    /// - Parameters:
    ///   - state: The child's part of the state.
    ///   - action: The case of this feature's action that embeds the child's actions.
    ///   - fileID: Unused by this lift.
    ///   - line: Unused by this lift.
    ///   - child: The child feature.
    /// - Returns: This feature with the child lifted into it.
    @_disfavoredOverload
    public func scope<ChildState: Sendable, ChildAction>(
        state: WritableKeyPath<State, ChildState> & Sendable,
        action: CaseKeyPath<Action, ChildAction> & Sendable,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ child: () -> Feature<ChildState, ChildAction, Void>
    ) -> Feature where State: Sendable {
        scope(
            state: state, action: { $0[case: action] }, embed: { action($0) },
            fileID: fileID, line: line, child)
    }

    /// Lifts a child feature that needs no services to an optional part of the state, for the actions of the
    /// case `action` names; the same as Lockstep's `ifLet(state:action:embed:…)`.
    ///
    /// - Parameters:
    ///   - state: The child's optional part of the state.
    ///   - action: The case of this feature's action that embeds the child's actions.
    ///   - fileID: Named in the issue for a child action without state; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - child: The child feature.
    /// - Returns: This feature with the child lifted into it.
    @_disfavoredOverload
    public func ifLet<ChildState: Sendable, ChildAction>(
        state: WritableKeyPath<State, ChildState?> & Sendable,
        action: CaseKeyPath<Action, ChildAction> & Sendable,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ child: () -> Feature<ChildState, ChildAction, Void>
    ) -> Feature where State: Sendable, Services: Sendable {
        ifLet(
            state: state, action: { $0[case: action] }, embed: { action($0) },
            fileID: fileID, line: line, child)
    }

    /// Lifts a presented child feature that needs no services to an optional part of the state, for the
    /// presentation actions of the case `action` names, as TCA's
    /// `ifLet(\.$destination, action: \.destination)`.
    ///
    /// - Parameters:
    ///   - state: The child's optional part of the state.
    ///   - action: The case of this feature's action that embeds the child's presentation actions.
    ///   - fileID: Named in the issue for a child action without state; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - child: The child feature.
    /// - Returns: This feature with the child lifted into it.
    @_disfavoredOverload
    public func ifLet<ChildState: Sendable, ChildAction>(
        state: WritableKeyPath<State, ChildState?> & Sendable,
        action: CaseKeyPath<Action, PresentationAction<ChildAction>> & Sendable,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ child: () -> Feature<ChildState, ChildAction, Void>
    ) -> Feature where State: Sendable, Services: Sendable {
        ifLet(
            state: state, action: { $0[case: action] }, embed: { action($0) },
            fileID: fileID, line: line, child)
    }
}

extension Feature where State: CasePathable & SendableMetatype, Action: CasePathable & SendableMetatype {
    /// Lifts a child feature to one case of this feature's enum state, for the actions of
    /// the case `action` names, as TCA's `ifCaseLet(\.login, action: \.login)`.
    ///
    /// - Parameters:
    ///   - state: The case of the enum state.
    ///   - action: The case of this feature's action that embeds the child's actions.
    ///   - services: The child's services, taken out of this feature's (a key path works).
    ///   - fileID: Named in the issue for an action of another case; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - child: The child feature.
    /// - Returns: This feature with the child lifted into it.
    public func ifCaseLet<ChildState: Sendable, ChildAction, ChildServices>(
        _ state: CaseKeyPath<State, ChildState> & Sendable,
        action: CaseKeyPath<Action, ChildAction> & Sendable,
        services: @escaping @Sendable (Services) -> ChildServices,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ child: () -> Feature<ChildState, ChildAction, ChildServices>
    ) -> Feature where State: Sendable {
        ifCaseLet(
            case: { $0[case: state] }, embed: { state($0) }, action: { $0[case: action] },
            embedAction: { action($0) }, services: services, fileID: fileID, line: line, child)
    }

    /// Lifts a child feature whose services are this feature's to one case of this feature's enum state, for the actions of
    /// the case `action` names, as TCA's `ifCaseLet(\.login, action: \.login)`.
    ///
    /// - Parameters:
    ///   - state: The case of the enum state.
    ///   - action: The case of this feature's action that embeds the child's actions.
    ///   - fileID: Named in the issue for an action of another case; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - child: The child feature.
    /// - Returns: This feature with the child lifted into it.
    public func ifCaseLet<ChildState: Sendable, ChildAction>(
        _ state: CaseKeyPath<State, ChildState> & Sendable,
        action: CaseKeyPath<Action, ChildAction> & Sendable,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ child: () -> Feature<ChildState, ChildAction, Services>
    ) -> Feature where State: Sendable {
        ifCaseLet(
            case: { $0[case: state] }, embed: { state($0) }, action: { $0[case: action] },
            embedAction: { action($0) }, fileID: fileID, line: line, child)
    }

    /// Lifts a child feature that needs no services to one case of this feature's enum state, for the actions of
    /// the case `action` names, as TCA's `ifCaseLet(\.login, action: \.login)`.
    ///
    /// - Parameters:
    ///   - state: The case of the enum state.
    ///   - action: The case of this feature's action that embeds the child's actions.
    ///   - fileID: Named in the issue for an action of another case; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - child: The child feature.
    /// - Returns: This feature with the child lifted into it.
    @_disfavoredOverload
    public func ifCaseLet<ChildState: Sendable, ChildAction>(
        _ state: CaseKeyPath<State, ChildState> & Sendable,
        action: CaseKeyPath<Action, ChildAction> & Sendable,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ child: () -> Feature<ChildState, ChildAction, Void>
    ) -> Feature where State: Sendable {
        ifCaseLet(
            case: { $0[case: state] }, embed: { state($0) }, action: { $0[case: action] },
            embedAction: { action($0) }, fileID: fileID, line: line, child)
    }
}
