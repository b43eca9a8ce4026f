import CasePaths
import Lockstep

// The Feature lifts of rows and of a navigation stack, taking the case key path of the action
// case that carries a row's or a screen's actions, as in TCA's
// `forEach(\.todos, action: \.todos)` and `forEach(\.path, action: \.path)`.

extension Feature where Action: CasePathable & SendableMetatype {
    /// Lifts a row feature to every element of a collection of identifiable rows, for the
    /// actions of the case `action` names (`case todo(id: Todo.ID, action: TodoAction)`); the
    /// same as Lockstep's `forEach(state:action:embed:services:…)`.
    ///
    /// ```swift
    /// Feature<TodosState, TodosAction, TodosServices>(reducer: todosReducer)
    ///     .forEach(state: \.todos, action: \.todo, services: \.clock) { todoFeature }
    /// ```
    ///
    /// - Parameters:
    ///   - state: The collection of rows in the state.
    ///   - action: The case of this feature's action that embeds a row's id and action.
    ///   - services: The row's services, taken out of this feature's (a key path works).
    ///   - fileID: Named in the issue for an unknown row; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - row: The row feature.
    /// - Returns: This feature with the rows lifted into it.
    public func forEach<Rows, RowAction, RowServices>(
        state: WritableKeyPath<State, Rows> & Sendable,
        action: CaseKeyPath<Action, (id: Rows.Element.ID, action: RowAction)> & Sendable,
        services: @escaping @Sendable (Services) -> RowServices,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ row: () -> Feature<Rows.Element, RowAction, RowServices>
    ) -> Feature
    where State: Sendable, Services: Sendable, Rows: MutableCollection & RandomAccessCollection & SendableMetatype,
        Rows.Element: Identifiable & Sendable, Rows.Element.ID: Sendable {
        forEach(
            state: state, action: { $0[case: action].map { ($0.id, $0.action) } },
            embed: { id, rowAction in action((id: id, action: rowAction)) }, services: services,
            fileID: fileID, line: line, row)
    }

    /// Lifts a row feature whose services are this feature's to every element of a collection
    /// of rows, for the actions of the case `action` names.
    ///
    /// - Parameters:
    ///   - state: The collection of rows in the state.
    ///   - action: The case of this feature's action that embeds a row's id and action.
    ///   - fileID: Named in the issue for an unknown row; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - row: The row feature.
    /// - Returns: This feature with the rows lifted into it.
    public func forEach<Rows, RowAction>(
        state: WritableKeyPath<State, Rows> & Sendable,
        action: CaseKeyPath<Action, (id: Rows.Element.ID, action: RowAction)> & Sendable,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ row: () -> Feature<Rows.Element, RowAction, Services>
    ) -> Feature
    where State: Sendable, Services: Sendable, Rows: MutableCollection & RandomAccessCollection & SendableMetatype,
        Rows.Element: Identifiable & Sendable, Rows.Element.ID: Sendable {
        forEach(state: state, action: action, services: { $0 }, fileID: fileID, line: line, row)
    }

    /// Lifts a row feature that needs no services to every element of a collection of rows,
    /// for the actions of the case `action` names.
    ///
    /// - Parameters:
    ///   - state: The collection of rows in the state.
    ///   - action: The case of this feature's action that embeds a row's id and action.
    ///   - fileID: Named in the issue for an unknown row; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - row: The row feature.
    /// - Returns: This feature with the rows lifted into it.
    @_disfavoredOverload
    public func forEach<Rows, RowAction>(
        state: WritableKeyPath<State, Rows> & Sendable,
        action: CaseKeyPath<Action, (id: Rows.Element.ID, action: RowAction)> & Sendable,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ row: () -> Feature<Rows.Element, RowAction, Void>
    ) -> Feature
    where State: Sendable, Services: Sendable, Rows: MutableCollection & RandomAccessCollection & SendableMetatype,
        Rows.Element: Identifiable & Sendable, Rows.Element.ID: Sendable {
        forEach(state: state, action: action, services: { _ in () }, fileID: fileID, line: line, row)
    }

    /// Lifts a screen feature to a navigation stack, for the actions of the case `action` names
    /// (`case path(StackAction<Screen, ScreenAction>)`), as TCA's
    /// `forEach(\.path, action: \.path)`; the same as Lockstep's `forEach(state:action:embed:services:…)`
    /// of a `StackState`.
    ///
    /// ```swift
    /// Feature<AppState, AppAction, AppServices>(reducer: appCoreReducer)
    ///     .forEach(state: \.path, action: \.path, services: \.books) { bookDetailFeature }
    /// ```
    ///
    /// - Parameters:
    ///   - state: The navigation stack in the state.
    ///   - action: The case of this feature's action that embeds the stack's actions.
    ///   - services: The screen's services, taken out of this feature's (a key path works).
    ///   - fileID: Named in the issue for an unknown screen; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - screen: The screen feature.
    /// - Returns: This feature with the stack's screens lifted into it.
    public func forEach<Element: Sendable, ElementAction: Sendable, ScreenServices>(
        state: WritableKeyPath<State, StackState<Element>> & Sendable,
        action: CaseKeyPath<Action, StackAction<Element, ElementAction>> & Sendable,
        services: @escaping @Sendable (Services) -> ScreenServices,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ screen: () -> Feature<Element, ElementAction, ScreenServices>
    ) -> Feature where State: Sendable, Services: Sendable {
        forEach(
            state: state, action: { $0[case: action] }, embed: { action($0) }, services: services,
            fileID: fileID, line: line, screen)
    }

    /// Lifts a screen feature whose services are this feature's to a navigation stack, for the
    /// actions of the case `action` names.
    ///
    /// - Parameters:
    ///   - state: The navigation stack in the state.
    ///   - action: The case of this feature's action that embeds the stack's actions.
    ///   - fileID: Named in the issue for an unknown screen; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - screen: The screen feature.
    /// - Returns: This feature with the stack's screens lifted into it.
    public func forEach<Element: Sendable, ElementAction: Sendable>(
        state: WritableKeyPath<State, StackState<Element>> & Sendable,
        action: CaseKeyPath<Action, StackAction<Element, ElementAction>> & Sendable,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ screen: () -> Feature<Element, ElementAction, Services>
    ) -> Feature where State: Sendable, Services: Sendable {
        forEach(state: state, action: action, services: { $0 }, fileID: fileID, line: line, screen)
    }

    /// Lifts a screen feature that needs no services to a navigation stack, for the actions of
    /// the case `action` names.
    ///
    /// - Parameters:
    ///   - state: The navigation stack in the state.
    ///   - action: The case of this feature's action that embeds the stack's actions.
    ///   - fileID: Named in the issue for an unknown screen; the caller's.
    ///   - line: Named in that issue; the caller's.
    ///   - screen: The screen feature.
    /// - Returns: This feature with the stack's screens lifted into it.
    @_disfavoredOverload
    public func forEach<Element: Sendable, ElementAction: Sendable>(
        state: WritableKeyPath<State, StackState<Element>> & Sendable,
        action: CaseKeyPath<Action, StackAction<Element, ElementAction>> & Sendable,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ screen: () -> Feature<Element, ElementAction, Void>
    ) -> Feature where State: Sendable, Services: Sendable {
        forEach(state: state, action: action, services: { _ in () }, fileID: fileID, line: line, screen)
    }
}
