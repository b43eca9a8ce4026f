/// Lifts the reducer of a presented child to an optional part of the app state, and closes the
/// child when it is dismissed: TCA's `ifLet` of a presentation.
///
/// `action` extracts the child's ``PresentationAction`` from an app action. On
/// ``PresentationAction/presented(_:)`` the child's reducer runs in place on the part; if the
/// part is an alert or a confirmation dialog (or a destination whose case holds one), the part
/// is set to `nil` afterwards, as tapping one of its buttons closes it. On
/// ``PresentationAction/dismiss`` the part is set to `nil`. A child action that arrives while the
/// part is `nil` (a late answer for a dismissed screen) is reported as an issue and changes
/// nothing; a dismissal of a part that is already `nil` changes nothing.
///
/// Combine it with the app's own reducer as its child, as TCA's `ifLet` runs: the child's
/// reducer runs first for the child's actions, and the app's reducer sees the child still there
/// when it handles its dismissal or an alert's button; the child is closed after it, unless the
/// app's reducer presented another child in its place:
///
/// ```swift
/// let bookReducer: InPlaceReducer<BookState, BookAction> = combineReducers(
///     parent: bookCoreReducer,
///     children: ifLetReducer(editorReducer, state: \BookState.editor, action: { $0.editor })
/// )
/// ```
///
/// In ``combineReducers(_:)-(InPlaceReducer<State,Action>...)`` it runs where it is listed, and
/// closes the child at once.
///
/// - Parameters:
///   - reducer: The child's reducer.
///   - state: The optional part of the app state that the child owns.
///   - action: Returns the presentation action embedded in an app action, or `nil`.
///   - fileID: The file the issue for a child action without state names; the caller's.
///   - line: The line the issue names; the caller's.
/// - Returns: An in-place reducer of the app's state and actions.
public func ifLetReducer<State, Action, FeatureState, FeatureAction>(
    _ reducer: @escaping InPlaceReducer<FeatureState, FeatureAction>,
    state: WritableKeyPath<State, FeatureState?> & Sendable,
    action: @escaping @Sendable (Action) -> PresentationAction<FeatureAction>?,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> InPlaceReducer<State, Action> {
    let site = "\(fileID):\(line)"
    return { appState, appAction in
        guard let presentationAction = action(appAction) else { return }
        switch presentationAction {
        case .dismiss:
            closeChild(state, in: &appState)
        case .presented(let featureAction):
            guard let presented = appState[keyPath: state] else {
                reportMissingChildState(featureAction, what: "its optional state is nil", site: site)
                return
            }
            reducer(&appState[keyPath: state]!, featureAction)
            if isDismissedByItsButtons(presented) {
                closeChild(state, in: &appState)
            }
        }
    }
}

/// Lifts the value-form reducer of a presented child to an optional part of the app state, and
/// closes the child when it is dismissed.
///
/// The same as the in-place
/// ``ifLetReducer(_:state:action:fileID:line:)-(InPlaceReducer<FeatureState,FeatureAction>,_,(Action)->PresentationAction<FeatureAction>?,_,_)``.
///
/// - Parameters:
///   - reducer: The child's reducer.
///   - state: The optional part of the app state that the child owns.
///   - action: Returns the presentation action embedded in an app action, or `nil`.
///   - fileID: The file the issue for a child action without state names; the caller's.
///   - line: The line the issue names; the caller's.
/// - Returns: An in-place reducer of the app's state and actions.
public func ifLetReducer<State, Action, FeatureState, FeatureAction>(
    _ reducer: @escaping Reducer<FeatureState, FeatureAction>,
    state: WritableKeyPath<State, FeatureState?> & Sendable,
    action: @escaping @Sendable (Action) -> PresentationAction<FeatureAction>?,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> InPlaceReducer<State, Action> {
    ifLetReducer(inPlaceReducer(reducer), state: state, action: action, fileID: fileID, line: line)
}

/// Closes a presented child that has no reducer of its own, an alert or a confirmation dialog,
/// when one of its buttons is tapped or it is dismissed.
///
/// The app's reducer handles the actions of the buttons; this lifter sets the part to `nil`
/// after them, and on ``PresentationAction/dismiss``, so no reducer does:
///
/// ```swift
/// let bookReducer: InPlaceReducer<BookState, BookAction> = combineReducers(
///     bookCoreReducer,
///     ifLetReducer(state: \BookState.alert, action: { $0.alert })
/// )
/// ```
///
/// - Parameters:
///   - state: The optional alert or dialog in the app state.
///   - action: Returns the presentation action embedded in an app action, or `nil`.
///   - fileID: The file the issue for a button action without an alert names; the caller's.
///   - line: The line the issue names; the caller's.
/// - Returns: An in-place reducer of the app's state and actions.
public func ifLetReducer<State, Action, FeatureState, FeatureAction>(
    state: WritableKeyPath<State, FeatureState?> & Sendable,
    action: @escaping @Sendable (Action) -> PresentationAction<FeatureAction>?,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> InPlaceReducer<State, Action> {
    ifLetReducer({ (_: inout FeatureState, _: FeatureAction) in }, state: state, action: action, fileID: fileID, line: line)
}
