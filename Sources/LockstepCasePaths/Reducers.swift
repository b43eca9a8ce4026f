import CasePaths
import Lockstep

// The reducer lifters of Lockstep, taking the case key path of a `@CasePathable` action instead
// of a function that extracts the feature's action.

/// Lifts a feature reducer to the part of the app state it owns, for the actions of the case
/// `action` names.
///
/// ```swift
/// @CasePathable
/// enum AppAction: Sendable {
///     case search(SearchAction)
/// }
///
/// let appReducer = scopeReducer(searchReducer, state: \AppState.search, action: \AppAction.Cases.search)
/// ```
///
/// The same as Lockstep's `scopeReducer(_:state:action:)` with `{ $0[case: action] }`.
///
/// - Parameters:
///   - reducer: The feature reducer.
///   - state: The part of the app state that the feature reducer owns.
///   - action: The case of the app action that embeds the feature's actions.
/// - Returns: A reducer of the app's state and actions.
public func scopeReducer<State, Action: CasePathable & SendableMetatype, FeatureState, FeatureAction>(
    _ reducer: @escaping Reducer<FeatureState, FeatureAction>,
    state: WritableKeyPath<State, FeatureState> & Sendable,
    action: CaseKeyPath<Action, FeatureAction> & Sendable
) -> Reducer<State, Action> {
    scopeReducer(reducer, state: state, action: { $0[case: action] })
}

/// Lifts an in-place feature reducer to the part of the app state it owns, for the actions of
/// the case `action` names.
///
/// ```swift
/// let appReducer: InPlaceReducer<AppState, AppAction> = combineReducers(
///     scopeReducer(searchReducer, state: \.search, action: \.search),
///     ifLetReducer(detailReducer, state: \.detail, action: \.detail)
/// )
/// ```
///
/// - Parameters:
///   - reducer: The feature reducer.
///   - state: The part of the app state that the feature reducer owns.
///   - action: The case of the app action that embeds the feature's actions.
/// - Returns: An in-place reducer of the app's state and actions.
public func scopeReducer<State, Action: CasePathable & SendableMetatype, FeatureState, FeatureAction>(
    _ reducer: @escaping InPlaceReducer<FeatureState, FeatureAction>,
    state: WritableKeyPath<State, FeatureState> & Sendable,
    action: CaseKeyPath<Action, FeatureAction> & Sendable
) -> InPlaceReducer<State, Action> {
    scopeReducer(reducer, state: state, action: { $0[case: action] })
}

/// Lifts an in-place feature reducer to an optional part of the app state, such as a presented
/// screen, for the actions of the case `action` names.
///
/// A feature action that arrives while the part is `nil` is reported as an issue and changes
/// nothing, as with Lockstep's `ifLetReducer(_:state:action:fileID:line:)`.
///
/// ```swift
/// ifLetReducer(detailReducer, state: \AppState.detail, action: \AppAction.Cases.detail)
/// ```
///
/// - Parameters:
///   - reducer: The feature reducer.
///   - state: The optional part of the app state.
///   - action: The case of the app action that embeds the feature's actions.
///   - fileID: The file the issue for a feature action without state names; the caller's.
///   - line: The line the issue names; the caller's.
/// - Returns: An in-place reducer of the app's state and actions.
public func ifLetReducer<State, Action: CasePathable & SendableMetatype, FeatureState, FeatureAction>(
    _ reducer: @escaping InPlaceReducer<FeatureState, FeatureAction>,
    state: WritableKeyPath<State, FeatureState?> & Sendable,
    action: CaseKeyPath<Action, FeatureAction> & Sendable,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> InPlaceReducer<State, Action> {
    ifLetReducer(reducer, state: state, action: { $0[case: action] }, fileID: fileID, line: line)
}

/// Lifts a value-form feature reducer to an optional part of the app state, for the actions of
/// the case `action` names.
///
/// - Parameters:
///   - reducer: The feature reducer.
///   - state: The optional part of the app state.
///   - action: The case of the app action that embeds the feature's actions.
///   - fileID: The file the issue for a feature action without state names; the caller's.
///   - line: The line the issue names; the caller's.
/// - Returns: An in-place reducer of the app's state and actions.
public func ifLetReducer<State, Action: CasePathable & SendableMetatype, FeatureState, FeatureAction>(
    _ reducer: @escaping Reducer<FeatureState, FeatureAction>,
    state: WritableKeyPath<State, FeatureState?> & Sendable,
    action: CaseKeyPath<Action, FeatureAction> & Sendable,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> InPlaceReducer<State, Action> {
    ifLetReducer(inPlaceReducer(reducer), state: state, action: { $0[case: action] }, fileID: fileID, line: line)
}

/// Lifts an in-place row reducer to every element of a collection of identifiable rows, for the
/// actions of the case `action` names: a case whose values are the row's id and action,
/// `case row(id: Row.ID, action: RowAction)`.
///
/// ```swift
/// forEachReducer(todoReducer, state: \AppState.todos, action: \AppAction.Cases.todo)
/// ```
///
/// A row action for an id that is not in the collection is reported as an issue and changes
/// nothing.
///
/// - Parameters:
///   - reducer: The reducer of one row.
///   - state: The collection of rows in the app state.
///   - action: The case of the app action that embeds a row's id and action.
///   - fileID: The file the issue for an unknown row names; the caller's.
///   - line: The line the issue names; the caller's.
/// - Returns: An in-place reducer of the app's state and actions.
public func forEachReducer<State, Action: CasePathable & SendableMetatype, Rows, RowAction>(
    _ reducer: @escaping InPlaceReducer<Rows.Element, RowAction>,
    state: WritableKeyPath<State, Rows> & Sendable,
    action: CaseKeyPath<Action, (id: Rows.Element.ID, action: RowAction)> & Sendable,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> InPlaceReducer<State, Action>
where Rows: MutableCollection & RandomAccessCollection & SendableMetatype, Rows.Element: Identifiable {
    forEachReducer(reducer, state: state, action: rowExtraction(action), fileID: fileID, line: line)
}

/// Lifts a value-form row reducer to every element of a collection of identifiable rows, for
/// the actions of the case `action` names.
///
/// - Parameters:
///   - reducer: The reducer of one row.
///   - state: The collection of rows in the app state.
///   - action: The case of the app action that embeds a row's id and action.
///   - fileID: The file the issue for an unknown row names; the caller's.
///   - line: The line the issue names; the caller's.
/// - Returns: An in-place reducer of the app's state and actions.
public func forEachReducer<State, Action: CasePathable & SendableMetatype, Rows, RowAction>(
    _ reducer: @escaping Reducer<Rows.Element, RowAction>,
    state: WritableKeyPath<State, Rows> & Sendable,
    action: CaseKeyPath<Action, (id: Rows.Element.ID, action: RowAction)> & Sendable,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> InPlaceReducer<State, Action>
where Rows: MutableCollection & RandomAccessCollection & SendableMetatype, Rows.Element: Identifiable {
    forEachReducer(inPlaceReducer(reducer), state: state, action: action, fileID: fileID, line: line)
}

/// Lifts the in-place reducer of a navigation stack's screens to the stack, for the actions of
/// the case `action` names: it pushes and pops screens, and runs the screen reducer on the
/// screen an action names.
///
/// ```swift
/// forEachReducer(bookDetailReducer, state: \AppState.path, action: \AppAction.Cases.path)
/// ```
///
/// - Parameters:
///   - reducer: The reducer of one screen.
///   - state: The stack in the app state.
///   - action: The case of the app action that embeds the stack's actions.
///   - fileID: The file the issue for an unknown id names; the caller's.
///   - line: The line the issue names; the caller's.
/// - Returns: An in-place reducer of the app's state and actions.
public func forEachReducer<State, Action: CasePathable & SendableMetatype, Element, ElementAction>(
    _ reducer: @escaping InPlaceReducer<Element, ElementAction>,
    state: WritableKeyPath<State, StackState<Element>> & Sendable,
    action: CaseKeyPath<Action, StackAction<Element, ElementAction>> & Sendable,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> InPlaceReducer<State, Action> {
    forEachReducer(reducer, state: state, action: { $0[case: action] }, fileID: fileID, line: line)
}

/// Lifts the value-form reducer of a navigation stack's screens to the stack, for the actions
/// of the case `action` names.
///
/// - Parameters:
///   - reducer: The reducer of one screen.
///   - state: The stack in the app state.
///   - action: The case of the app action that embeds the stack's actions.
///   - fileID: The file the issue for an unknown id names; the caller's.
///   - line: The line the issue names; the caller's.
/// - Returns: An in-place reducer of the app's state and actions.
public func forEachReducer<State, Action: CasePathable & SendableMetatype, Element, ElementAction>(
    _ reducer: @escaping Reducer<Element, ElementAction>,
    state: WritableKeyPath<State, StackState<Element>> & Sendable,
    action: CaseKeyPath<Action, StackAction<Element, ElementAction>> & Sendable,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> InPlaceReducer<State, Action> {
    forEachReducer(inPlaceReducer(reducer), state: state, action: action, fileID: fileID, line: line)
}
