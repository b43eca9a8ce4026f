import CasePaths
import Lockstep

// The middleware and effect lifters of Lockstep, taking one case key path of a `@CasePathable`
// action, which both extracts the feature's actions and embeds the actions the feature
// dispatches.

/// Lifts a feature's middleware to the app, for the actions of the case `action` names; the
/// feature's dispatches are embedded in that case.
///
/// ```swift
/// let store = Store(state: AppState(), reducer: appReducer, services: services) {
///     scopeMiddleware(searchMiddleware, state: \AppState.search, action: \AppAction.Cases.search)
/// }
/// ```
///
/// The same as Lockstep's `scopeMiddleware(_:state:action:embed:)` with
/// `action: { $0[case: action] }, embed: { action($0) }`.
///
/// - Parameters:
///   - middleware: The feature's middleware.
///   - state: The feature's part of the app state.
///   - action: The case of the app action that embeds the feature's actions.
/// - Returns: A side effect of the app, a statement of its store's `SideEffectBuilder`.
public func scopeMiddleware<State, Action: CasePathable, FeatureState, FeatureAction, Services>(
    _ middleware: @escaping Middleware<FeatureState, FeatureAction, Services>,
    state: KeyPath<State, FeatureState> & Sendable,
    action: CaseKeyPath<Action, FeatureAction> & Sendable
) -> SideEffect<State, Action, Services> where FeatureState: Sendable, State: Sendable {
    scopeMiddleware(middleware, state: state, action: { $0[case: action] }, embed: { action($0) })
}

/// Lifts a feature's middleware that needs no services to the app, for the actions of the case
/// `action` names.
///
/// - Parameters:
///   - middleware: The feature's middleware.
///   - state: The feature's part of the app state.
///   - action: The case of the app action that embeds the feature's actions.
/// - Returns: A side effect of the app, a statement of its store's `SideEffectBuilder`.
public func scopeMiddleware<State, Action: CasePathable, FeatureState, FeatureAction>(
    _ middleware: @escaping PlainMiddleware<FeatureState, FeatureAction>,
    state: KeyPath<State, FeatureState> & Sendable,
    action: CaseKeyPath<Action, FeatureAction> & Sendable
) -> SideEffect<State, Action, Void> where FeatureState: Sendable, State: Sendable {
    scopeMiddleware(middleware, state: state, action: { $0[case: action] }, embed: { action($0) })
}

/// Lifts a feature's middleware to an optional part of the app state, for the actions of the
/// case `action` names; its work in flight is cancelled when the part becomes `nil` or is
/// replaced by one with another `id`.
///
/// ```swift
/// ifLetMiddleware(detailMiddleware, state: \AppState.detail, action: \AppAction.Cases.detail)
/// ```
///
/// - Parameters:
///   - middleware: The feature's middleware.
///   - state: The optional part of the app state.
///   - action: The case of the app action that embeds the feature's actions.
///   - fileID: Named in the issue for a feature action without state; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: A side effect of the app, a statement of its store's `SideEffectBuilder`.
public func ifLetMiddleware<State, Action: CasePathable, FeatureState, FeatureAction, Services: Sendable>(
    _ middleware: @escaping Middleware<FeatureState, FeatureAction, Services>,
    state: KeyPath<State, FeatureState?> & Sendable,
    action: CaseKeyPath<Action, FeatureAction> & Sendable,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> SideEffect<State, Action, Services> where FeatureState: Sendable, State: Sendable {
    ifLetMiddleware(
        middleware, state: state, action: { $0[case: action] }, embed: { action($0) }, fileID: fileID, line: line)
}

/// Lifts a feature's middleware that needs no services to an optional part of the app state,
/// for the actions of the case `action` names.
///
/// - Parameters:
///   - middleware: The feature's middleware.
///   - state: The optional part of the app state.
///   - action: The case of the app action that embeds the feature's actions.
///   - fileID: Named in the issue for a feature action without state; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: A side effect of the app, a statement of its store's `SideEffectBuilder`.
public func ifLetMiddleware<State, Action: CasePathable, FeatureState, FeatureAction>(
    _ middleware: @escaping PlainMiddleware<FeatureState, FeatureAction>,
    state: KeyPath<State, FeatureState?> & Sendable,
    action: CaseKeyPath<Action, FeatureAction> & Sendable,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> SideEffect<State, Action, Void> where FeatureState: Sendable, State: Sendable {
    ifLetMiddleware(
        middleware, state: state, action: { $0[case: action] }, embed: { action($0) }, fileID: fileID, line: line)
}

/// Lifts a row's middleware to every element of a collection of identifiable rows, for the
/// actions of the case `action` names (`case row(id: Row.ID, action: RowAction)`); a removed
/// row's work in flight is cancelled.
///
/// ```swift
/// forEachMiddleware(todoMiddleware, state: \AppState.todos, action: \AppAction.Cases.todo)
/// ```
///
/// - Parameters:
///   - middleware: The row's middleware.
///   - state: The collection of rows in the app state.
///   - action: The case of the app action that embeds a row's id and action.
///   - fileID: Named in the issue for an unknown row; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: A side effect of the app, a statement of its store's `SideEffectBuilder`.
public func forEachMiddleware<State, Action: CasePathable, Rows, RowAction, Services: Sendable>(
    _ middleware: @escaping Middleware<Rows.Element, RowAction, Services>,
    state: KeyPath<State, Rows> & Sendable,
    action: CaseKeyPath<Action, (id: Rows.Element.ID, action: RowAction)> & Sendable,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> SideEffect<State, Action, Services>
where State: Sendable, Rows: RandomAccessCollection & SendableMetatype, Rows.Element: Identifiable & Sendable,
    Rows.Element.ID: Sendable {
    forEachMiddleware(
        middleware, state: state, action: rowExtraction(action), embed: rowEmbedding(action), fileID: fileID, line: line)
}

/// Lifts a row's middleware that needs no services to every element of a collection of rows,
/// for the actions of the case `action` names.
///
/// - Parameters:
///   - middleware: The row's middleware.
///   - state: The collection of rows in the app state.
///   - action: The case of the app action that embeds a row's id and action.
///   - fileID: Named in the issue for an unknown row; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: A side effect of the app, a statement of its store's `SideEffectBuilder`.
public func forEachMiddleware<State, Action: CasePathable, Rows, RowAction>(
    _ middleware: @escaping PlainMiddleware<Rows.Element, RowAction>,
    state: KeyPath<State, Rows> & Sendable,
    action: CaseKeyPath<Action, (id: Rows.Element.ID, action: RowAction)> & Sendable,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> SideEffect<State, Action, Void>
where State: Sendable, Rows: RandomAccessCollection & SendableMetatype, Rows.Element: Identifiable & Sendable,
    Rows.Element.ID: Sendable {
    forEachMiddleware(
        middleware, state: state, action: rowExtraction(action), embed: rowEmbedding(action), fileID: fileID, line: line)
}

/// Lifts the middleware of a navigation stack's screens to the stack, for the actions of the
/// case `action` names; a popped screen's work in flight is cancelled.
///
/// ```swift
/// forEachMiddleware(bookDetailMiddleware, state: \AppState.path, action: \AppAction.Cases.path)
/// ```
///
/// - Parameters:
///   - middleware: The middleware of one screen.
///   - state: The stack in the app state.
///   - action: The case of the app action that embeds the stack's actions.
///   - fileID: Named in the issue for an unknown id; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: A side effect of the app, a statement of its store's `SideEffectBuilder`.
public func forEachMiddleware<State, Action: CasePathable, Element, ElementAction, Services: Sendable>(
    _ middleware: @escaping Middleware<Element, ElementAction, Services>,
    state: KeyPath<State, StackState<Element>> & Sendable,
    action: CaseKeyPath<Action, StackAction<Element, ElementAction>> & Sendable,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> SideEffect<State, Action, Services> where State: Sendable, Element: Sendable, ElementAction: Sendable {
    forEachMiddleware(
        middleware, state: state, action: { $0[case: action] }, embed: { action($0) }, fileID: fileID, line: line)
}

/// Lifts the middleware of a navigation stack's screens that needs no services to the stack,
/// for the actions of the case `action` names.
///
/// - Parameters:
///   - middleware: The middleware of one screen.
///   - state: The stack in the app state.
///   - action: The case of the app action that embeds the stack's actions.
///   - fileID: Named in the issue for an unknown id; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: A side effect of the app, a statement of its store's `SideEffectBuilder`.
public func forEachMiddleware<State, Action: CasePathable, Element, ElementAction>(
    _ middleware: @escaping PlainMiddleware<Element, ElementAction>,
    state: KeyPath<State, StackState<Element>> & Sendable,
    action: CaseKeyPath<Action, StackAction<Element, ElementAction>> & Sendable,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> SideEffect<State, Action, Void> where State: Sendable, Element: Sendable, ElementAction: Sendable {
    forEachMiddleware(
        middleware, state: state, action: { $0[case: action] }, embed: { action($0) }, fileID: fileID, line: line)
}

/// Lifts a feature's effect to the app: it reads the feature actions of the case `action`
/// names, and the actions it emits are embedded in that case.
///
/// ```swift
/// store.register(scopeEffect(searchEffect, action: \AppAction.Cases.search))
/// ```
///
/// - Parameters:
///   - effect: The feature's effect.
///   - action: The case of the app action that embeds the feature's actions.
/// - Returns: An effect of the app.
public func scopeEffect<Action: CasePathable & Sendable, FeatureAction: Sendable>(
    _ effect: Effect<FeatureAction>,
    action: CaseKeyPath<Action, FeatureAction> & Sendable
) -> Effect<Action> {
    scopeEffect(effect, action: { $0[case: action] }, embed: { action($0) })
}

/// Lifts a feature's side effects, composed in a `SideEffectBuilder`, to the app, for the
/// actions of the case `action` names; the feature's dispatches are embedded in that case.
///
/// ```swift
/// let store = Store(state: AppState(), reducer: appReducer, services: services) {
///     scopeMiddleware(searchSideEffects, state: \AppState.search, action: \AppAction.Cases.search)
/// }
/// ```
///
/// The same as Lockstep's `scopeMiddleware(_:state:action:embed:)` of a list of side effects,
/// with `action: { $0[case: action] }, embed: { action($0) }`.
///
/// - Parameters:
///   - sideEffects: The feature's side effects.
///   - state: The feature's part of the app state.
///   - action: The case of the app action that embeds the feature's actions.
/// - Returns: The side effects of the app, statements of its store's `SideEffectBuilder`.
public func scopeMiddleware<State, Action: CasePathable, FeatureState, FeatureAction, Services>(
    _ sideEffects: [SideEffect<FeatureState, FeatureAction, Services>],
    state: KeyPath<State, FeatureState> & Sendable,
    action: CaseKeyPath<Action, FeatureAction> & Sendable
) -> [SideEffect<State, Action, Services>] where FeatureState: Sendable, State: Sendable {
    scopeMiddleware(sideEffects, state: state, action: { $0[case: action] }, embed: { action($0) })
}
