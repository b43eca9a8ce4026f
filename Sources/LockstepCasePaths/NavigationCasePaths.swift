import CasePaths
import Lockstep

// Case key paths of Lockstep's navigation actions, as `@CasePathable` would write them, so that
// `\.destination.presented`, `\.destination.dismiss`, `\.destination.editor` (through
// `.presented`) and `\.path.popFrom` can be written.

extension PresentationAction: CasePathable {
    /// The case paths of a presentation action: `\.presented`, `\.dismiss`, and every case of
    /// the child's action, through `presented`, when the child's action is `@CasePathable`
    /// (`\.destination.editor` for `.destination(.presented(.editor(...)))`).
    @dynamicMemberLookup
    public struct AllCasePaths: Sendable {
        /// The case path of `PresentationAction.presented(_:)`.
        public var presented: AnyCasePath<PresentationAction, Action> {
            AnyCasePath(embed: { .presented($0) }, extract: { $0.presented })
        }

        /// The case path of `PresentationAction.dismiss`.
        public var dismiss: AnyCasePath<PresentationAction, Void> {
            AnyCasePath(
                embed: { .dismiss },
                extract: { if case .dismiss = $0 { () } else { nil } })
        }

        /// The case path of a case of the child's action, through
        /// `PresentationAction.presented(_:)`.
        ///
        /// - Parameter keyPath: The case of the child's action.
        public subscript<ChildValue>(
            dynamicMember keyPath: KeyPath<Action.AllCasePaths, AnyCasePath<Action, ChildValue>>
        ) -> AnyCasePath<PresentationAction, ChildValue> where Action: CasePathable & SendableMetatype {
            let casePath = Action.allCasePaths[keyPath: keyPath]
            return AnyCasePath(
                embed: { .presented(casePath.embed($0)) },
                extract: { $0.presented.flatMap(casePath.extract(from:)) })
        }
    }

    /// The case paths of a presentation action.
    public static var allCasePaths: AllCasePaths { AllCasePaths() }
}

extension StackAction: CasePathable {
    /// The case paths of a navigation stack's action: `\.push`, `\.popFrom`, `\.element`, and
    /// `[id:]` for the actions of one screen (`\.path[id: 0].save`).
    public struct AllCasePaths: Sendable {
        /// The case path of `StackAction.push(_:)`.
        public var push: AnyCasePath<StackAction, Element> {
            AnyCasePath(embed: { .push($0) }, extract: { if case .push(let element) = $0 { element } else { nil } })
        }

        /// The case path of `StackAction.popFrom(id:)`.
        public var popFrom: AnyCasePath<StackAction, StackElementID> {
            AnyCasePath(embed: { .popFrom(id: $0) }, extract: { if case .popFrom(let id) = $0 { id } else { nil } })
        }

        /// The case path of `StackAction.element(id:action:)`.
        public var element: AnyCasePath<StackAction, (id: StackElementID, action: ElementAction)> {
            AnyCasePath(embed: { .element(id: $0.id, action: $0.action) }, extract: { $0.element })
        }

        /// The case path of the actions of the screen with `id`.
        ///
        /// - Parameter id: The id of the screen.
        public subscript(id id: StackElementID) -> AnyCasePath<StackAction, ElementAction> {
            AnyCasePath(
                embed: { .element(id: id, action: $0) },
                extract: { action in
                    guard let element = action.element, element.id == id else { return nil }
                    return element.action
                })
        }
    }

    /// The case paths of a navigation stack's action.
    public static var allCasePaths: AllCasePaths { AllCasePaths() }
}

/// Lifts the reducer of a presented child to an optional part of the app state, for the
/// presentation actions of the case `action` names, and closes the child when it is dismissed
/// or, for an alert or a dialog, when one of its buttons is tapped.
///
/// ```swift
/// ifLetReducer(destinationReducer, state: \AppState.destination, action: \AppAction.Cases.destination)
/// ```
///
/// The same as Lockstep's presentation form of `ifLetReducer(_:state:action:fileID:line:)` with
/// `{ $0[case: action] }`.
///
/// - Parameters:
///   - reducer: The child's reducer.
///   - state: The optional part of the app state that the child owns.
///   - action: The case of the app action that embeds the child's presentation actions.
///   - fileID: The file the issue for a child action without state names; the caller's.
///   - line: The line the issue names; the caller's.
/// - Returns: An in-place reducer of the app's state and actions.
public func ifLetReducer<State, Action: CasePathable & SendableMetatype, FeatureState, FeatureAction>(
    _ reducer: @escaping InPlaceReducer<FeatureState, FeatureAction>,
    state: WritableKeyPath<State, FeatureState?> & Sendable,
    action: CaseKeyPath<Action, PresentationAction<FeatureAction>> & Sendable,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> InPlaceReducer<State, Action> {
    ifLetReducer(reducer, state: state, action: { $0[case: action] }, fileID: fileID, line: line)
}

/// Closes an alert or a confirmation dialog of the app state when one of its buttons is tapped
/// or it is dismissed, for the presentation actions of the case `action` names.
///
/// ```swift
/// ifLetReducer(state: \BookState.alert, action: \BookAction.Cases.alert)
/// ```
///
/// - Parameters:
///   - state: The optional alert or dialog in the app state.
///   - action: The case of the app action that embeds its presentation actions.
///   - fileID: The file the issue for a button action without an alert names; the caller's.
///   - line: The line the issue names; the caller's.
/// - Returns: An in-place reducer of the app's state and actions.
public func ifLetReducer<State, Action: CasePathable & SendableMetatype, FeatureState, FeatureAction>(
    state: WritableKeyPath<State, FeatureState?> & Sendable,
    action: CaseKeyPath<Action, PresentationAction<FeatureAction>> & Sendable,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> InPlaceReducer<State, Action> {
    ifLetReducer(state: state, action: { $0[case: action] }, fileID: fileID, line: line)
}

/// Lifts the reducer of one case of a `@CasePathable` enum state to the enum, for the actions of
/// the case `action` names: one call a destination, or a kind of screen of a stack.
///
/// ```swift
/// let destinationReducer: InPlaceReducer<Destination, DestinationAction> = combineReducers(
///     scopeReducer(editorReducer, state: \.editor, action: \.editor)
/// )
/// ```
///
/// The same as Lockstep's `scopeReducer(_:case:embed:action:fileID:line:)` with the case key
/// path's extraction and embedding.
///
/// - Parameters:
///   - reducer: The reducer of the case's value.
///   - state: The case of the enum state.
///   - action: The case of the enum's action that embeds the case's actions.
///   - fileID: The file the issue for an action of another case names; the caller's.
///   - line: The line the issue names; the caller's.
/// - Returns: An in-place reducer of the enum.
public func scopeReducer<State: CasePathable & SendableMetatype, Action: CasePathable & SendableMetatype, CaseState, CaseAction>(
    _ reducer: @escaping InPlaceReducer<CaseState, CaseAction>,
    state: CaseKeyPath<State, CaseState> & Sendable,
    action: CaseKeyPath<Action, CaseAction> & Sendable,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> InPlaceReducer<State, Action> {
    scopeReducer(
        reducer, case: { $0[case: state] }, embed: { state($0) }, action: { $0[case: action] },
        fileID: fileID, line: line)
}

/// Lifts the value-form reducer of one case of a `@CasePathable` enum state to the enum.
///
/// - Parameters:
///   - reducer: The reducer of the case's value.
///   - state: The case of the enum state.
///   - action: The case of the enum's action that embeds the case's actions.
///   - fileID: The file the issue for an action of another case names; the caller's.
///   - line: The line the issue names; the caller's.
/// - Returns: An in-place reducer of the enum.
public func scopeReducer<State: CasePathable & SendableMetatype, Action: CasePathable & SendableMetatype, CaseState, CaseAction>(
    _ reducer: @escaping Reducer<CaseState, CaseAction>,
    state: CaseKeyPath<State, CaseState> & Sendable,
    action: CaseKeyPath<Action, CaseAction> & Sendable,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> InPlaceReducer<State, Action> {
    scopeReducer(inPlaceReducer(reducer), state: state, action: action, fileID: fileID, line: line)
}

/// Lifts the middleware of a presented child to an optional part of the app state, for the
/// presentation actions of the case `action` names; the child's work is cancelled when it goes,
/// and it can dismiss itself with `dispatch.dismiss()`.
///
/// ```swift
/// ifLetMiddleware(destinationMiddleware, state: \AppState.destination, action: \AppAction.Cases.destination)
/// ```
///
/// - Parameters:
///   - middleware: The child's middleware.
///   - state: The optional part of the app state.
///   - action: The case of the app action that embeds the child's presentation actions.
///   - fileID: Named in the issue for a child action without state; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: A side effect of the app, a statement of its store's `SideEffectBuilder`.
public func ifLetMiddleware<State, Action: CasePathable, FeatureState, FeatureAction, Services: Sendable>(
    _ middleware: @escaping Middleware<FeatureState, FeatureAction, Services>,
    state: KeyPath<State, FeatureState?> & Sendable,
    action: CaseKeyPath<Action, PresentationAction<FeatureAction>> & Sendable,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> SideEffect<State, Action, Services> where FeatureState: Sendable, State: Sendable {
    ifLetMiddleware(
        middleware, state: state, action: { $0[case: action] }, embed: { action($0) }, fileID: fileID, line: line)
}

/// Lifts the side effects of a presented child, composed in a `SideEffectBuilder` (such as one
/// per case of an enum of destinations), to an optional part of the app state, for the
/// presentation actions of the case `action` names.
///
/// ```swift
/// @SideEffectBuilder<Destination, DestinationAction, Void>
/// var destinationSideEffects: [SideEffect<Destination, DestinationAction, Void>] {
///     scopeMiddleware(editorMiddleware, state: \Destination.Cases.editor, action: \DestinationAction.Cases.editor)
/// }
///
/// let store = Store(state: AppState(), reducer: appReducer) {
///     ifLetMiddleware(destinationSideEffects, state: \AppState.destination, action: \AppAction.Cases.destination)
/// }
/// ```
///
/// - Parameters:
///   - sideEffects: The child's side effects.
///   - state: The optional part of the app state.
///   - action: The case of the app action that embeds the child's presentation actions.
///   - fileID: Named in the issue for a child action without state; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: The side effects of the app, statements of its store's `SideEffectBuilder`.
public func ifLetMiddleware<State, Action: CasePathable, FeatureState, FeatureAction, Services: Sendable>(
    _ sideEffects: [SideEffect<FeatureState, FeatureAction, Services>],
    state: KeyPath<State, FeatureState?> & Sendable,
    action: CaseKeyPath<Action, PresentationAction<FeatureAction>> & Sendable,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> [SideEffect<State, Action, Services>] where FeatureState: Sendable, State: Sendable {
    ifLetMiddleware(
        sideEffects, state: state, action: { $0[case: action] }, embed: { action($0) }, fileID: fileID, line: line)
}

/// Lifts the side effects of a navigation stack's screens, composed in a `SideEffectBuilder`
/// (such as one per kind of screen), to the stack, for the actions of the case `action` names.
///
/// ```swift
/// @SideEffectBuilder<Path, PathAction, Void>
/// var pathSideEffects: [SideEffect<Path, PathAction, Void>] {
///     scopeMiddleware(detailMiddleware, state: \Path.Cases.detail, action: \PathAction.Cases.detail)
/// }
///
/// let store = Store(state: AppState(), reducer: appReducer) {
///     forEachMiddleware(pathSideEffects, state: \AppState.path, action: \AppAction.Cases.path)
/// }
/// ```
///
/// - Parameters:
///   - sideEffects: The side effects of one screen.
///   - state: The stack in the app state.
///   - action: The case of the app action that embeds the stack's actions.
///   - fileID: Named in the issue for an unknown id; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: The side effects of the app, statements of its store's `SideEffectBuilder`.
public func forEachMiddleware<State, Action: CasePathable, Element, ElementAction, Services: Sendable>(
    _ sideEffects: [SideEffect<Element, ElementAction, Services>],
    state: KeyPath<State, StackState<Element>> & Sendable,
    action: CaseKeyPath<Action, StackAction<Element, ElementAction>> & Sendable,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> [SideEffect<State, Action, Services>] where State: Sendable, Element: Sendable, ElementAction: Sendable {
    forEachMiddleware(
        sideEffects, state: state, action: { $0[case: action] }, embed: { action($0) }, fileID: fileID, line: line)
}

/// Lifts the middleware of a presented child that needs no services to an optional part of the
/// app state, for the presentation actions of the case `action` names.
///
/// - Parameters:
///   - middleware: The child's middleware.
///   - state: The optional part of the app state.
///   - action: The case of the app action that embeds the child's presentation actions.
///   - fileID: Named in the issue for a child action without state; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: A side effect of the app, a statement of its store's `SideEffectBuilder`.
public func ifLetMiddleware<State, Action: CasePathable, FeatureState, FeatureAction>(
    _ middleware: @escaping PlainMiddleware<FeatureState, FeatureAction>,
    state: KeyPath<State, FeatureState?> & Sendable,
    action: CaseKeyPath<Action, PresentationAction<FeatureAction>> & Sendable,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> SideEffect<State, Action, Void> where FeatureState: Sendable, State: Sendable {
    ifLetMiddleware(
        middleware, state: state, action: { $0[case: action] }, embed: { action($0) }, fileID: fileID, line: line)
}

/// Lifts the middleware of one case of a `@CasePathable` enum state to the enum, for the actions
/// of the case `action` names.
///
/// ```swift
/// scopeMiddleware(editorMiddleware, state: \Destination.Cases.editor, action: \DestinationAction.Cases.editor)
/// ```
///
/// - Parameters:
///   - middleware: The middleware of the case.
///   - state: The case of the enum state.
///   - action: The case of the enum's action that embeds the case's actions.
///   - fileID: Named in the issue for an action of another case; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: A side effect of the enum, a statement of a `SideEffectBuilder`.
public func scopeMiddleware<State: CasePathable, Action: CasePathable, CaseState, CaseAction, Services>(
    _ middleware: @escaping Middleware<CaseState, CaseAction, Services>,
    state: CaseKeyPath<State, CaseState> & Sendable,
    action: CaseKeyPath<Action, CaseAction> & Sendable,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> SideEffect<State, Action, Services> where State: Sendable, CaseState: Sendable {
    scopeMiddleware(
        middleware, case: { $0[case: state] }, action: { $0[case: action] }, embed: { action($0) },
        fileID: fileID, line: line)
}

/// Lifts the middleware of one case of a `@CasePathable` enum state that needs no services to
/// the enum, for the actions of the case `action` names.
///
/// - Parameters:
///   - middleware: The middleware of the case.
///   - state: The case of the enum state.
///   - action: The case of the enum's action that embeds the case's actions.
///   - fileID: Named in the issue for an action of another case; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: A side effect of the enum, a statement of a `SideEffectBuilder`.
public func scopeMiddleware<State: CasePathable, Action: CasePathable, CaseState, CaseAction>(
    _ middleware: @escaping PlainMiddleware<CaseState, CaseAction>,
    state: CaseKeyPath<State, CaseState> & Sendable,
    action: CaseKeyPath<Action, CaseAction> & Sendable,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> SideEffect<State, Action, Void> where State: Sendable, CaseState: Sendable {
    scopeMiddleware(
        middleware, case: { $0[case: state] }, action: { $0[case: action] }, embed: { action($0) },
        fileID: fileID, line: line)
}

/// Lifts the side effects of one case of a `@CasePathable` enum state, composed in a
/// `SideEffectBuilder`, to the enum, for the actions of the case `action` names: a stack
/// screen's or a destination's feature with side effects of its own and of its children.
///
/// ```swift
/// @SideEffectBuilder<Path, PathAction, Services>
/// var pathSideEffects: [SideEffect<Path, PathAction, Services>] {
///     scopeMiddleware(detailSideEffects, state: \Path.Cases.detail, action: \PathAction.Cases.detail)
/// }
/// ```
///
/// The same as Lockstep's `scopeMiddleware(_:case:action:embed:fileID:line:)` of a list of side
/// effects, with the case key paths as its closures, and the label of the single-middleware
/// form of this module. An action of the case that arrives while
/// the state is another case is reported as an issue, once.
///
/// - Parameters:
///   - sideEffects: The side effects of the case.
///   - state: The case of the enum state.
///   - action: The case of the enum's action that embeds the case's actions.
///   - fileID: Named in the issue for an action of another case; the caller's.
///   - line: Named in that issue; the caller's.
/// - Returns: The side effects of the enum, statements of a `SideEffectBuilder`.
public func scopeMiddleware<State: CasePathable, Action: CasePathable, CaseState, CaseAction, Services>(
    _ sideEffects: [SideEffect<CaseState, CaseAction, Services>],
    state: CaseKeyPath<State, CaseState> & Sendable,
    action: CaseKeyPath<Action, CaseAction> & Sendable,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> [SideEffect<State, Action, Services>] where State: Sendable, CaseState: Sendable {
    scopeMiddleware(
        sideEffects, case: { $0[case: state] }, action: { $0[case: action] }, embed: { action($0) },
        fileID: fileID, line: line)
}
