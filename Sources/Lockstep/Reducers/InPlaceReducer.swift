import IssueReporting

/// A reducer that changes the state in place: `(inout State, Action) -> Void`.
///
/// It does what a ``Reducer`` does, without returning a new state. When the state holds a large
/// collection, an in-place reducer that changes one element does not copy the collection, so a
/// dispatch costs the same with a thousand elements as with a million:
///
/// ```swift
/// let todosReducer: InPlaceReducer<TodosState, TodosAction> = { state, action in
///     switch action {
///     case .toggle(let id):
///         state.todos[id: id]?.isDone.toggle()
///     case .add(let todo):
///         state.todos.append(todo)
///     }
/// }
/// let store = Store(state: TodosState(), reducer: todosReducer)
/// ```
///
/// What keeps the state before an action costs a copy: an ``ActionObserver`` (logging,
/// recording) and LockstepTesting's `TestStore` are handed the state before and after each
/// action, so a store with one keeps the old state, and the in-place change then copies the
/// collection it touches, as a value reducer does (about 0.5 ms for a million `Int`s). A store
/// with no observer keeps nothing and copies nothing.
///
/// Every store initializer accepts either form. Compose in-place reducers with
/// ``combineReducers(_:)-(InPlaceReducer<State,Action>...)``, ``scopeReducer(_:state:action:)->InPlaceReducer<State,Action>``,
/// ``ifLetReducer(_:state:action:fileID:line:)-(InPlaceReducer<FeatureState,FeatureAction>,_,(Action)->FeatureAction?,_,_)`` and ``forEachReducer(_:state:action:fileID:line:)-(InPlaceReducer<Rows.Element,RowAction>,_,_,_,_)``; turn a value-form reducer into one with
/// ``inPlaceReducer(_:)``.
public typealias InPlaceReducer<State, Action> = @Sendable (_ state: inout State, _ action: Action) -> Void

/// The in-place form of a value-form reducer, to combine it with in-place reducers.
///
/// ```swift
/// let appReducer = combineReducers(
///     inPlaceReducer(settingsReducer),
///     ifLetReducer(detailReducer, state: \AppState.detail, action: \AppAction.detail)
/// )
/// ```
///
/// The result still copies what the value-form reducer copies; write the reducer in place to
/// avoid that.
///
/// - Parameter reducer: A reducer that returns the next state.
/// - Returns: A reducer that assigns the next state in place.
@inlinable
public func inPlaceReducer<State, Action>(
    _ reducer: @escaping Reducer<State, Action>
) -> InPlaceReducer<State, Action> {
    { state, action in state = reducer(state, action) }
}

/// Combines in-place reducers into one that runs each of them in order on every action.
///
/// ```swift
/// let appReducer = combineReducers(
///     scopeReducer(searchReducer, state: \AppState.search, action: \AppAction.search),
///     ifLetReducer(detailReducer, state: \AppState.detail, action: \AppAction.detail)
/// )
/// ```
///
/// - Parameter reducers: The reducers to run, in order.
/// - Returns: A reducer that runs every reducer in `reducers` on the same state.
public func combineReducers<State, Action>(
    _ reducers: InPlaceReducer<State, Action>...
) -> InPlaceReducer<State, Action> {
    combineReducers(reducers)
}

/// Combines an array of in-place reducers into one that runs each of them in order.
///
/// ```swift
/// var reducers: [InPlaceReducer<AppState, AppAction>] = [coreReducer]
/// if settings.showsDetail {
///   reducers.append(ifLetReducer(detailReducer, state: \AppState.detail, action: \AppAction.detail))
/// }
/// let appReducer = combineReducers(reducers)
/// ```
///
/// - Parameter reducers: The reducers to run, in order.
/// - Returns: A reducer that runs every reducer in `reducers` on the same state.
public func combineReducers<State, Action>(
    _ reducers: [InPlaceReducer<State, Action>]
) -> InPlaceReducer<State, Action> {
    switch reducers.count {
    case 0:
        return { _, _ in }
    case 1:
        return reducers[0]
    default:
        return { state, action in
            for reducer in reducers {
                reducer(&state, action)
            }
        }
    }
}

/// Lifts an in-place feature reducer to an in-place reducer of the whole app.
///
/// The feature reducer runs on the app state's `state` part, in place, for the actions that
/// `action` extracts a feature action from:
///
/// ```swift
/// let scopedSearch = scopeReducer(searchReducer, state: \AppState.search, action: \AppAction.search)
/// ```
///
/// - Parameters:
///   - reducer: The feature reducer.
///   - state: The part of the app state that the feature reducer owns.
///   - action: A function that returns the feature action embedded in an app action, or `nil`
///     when the app action belongs to another feature.
/// - Returns: An in-place reducer of the app's state and actions.
public func scopeReducer<State, Action, FeatureState, FeatureAction>(
    _ reducer: @escaping InPlaceReducer<FeatureState, FeatureAction>,
    state: WritableKeyPath<State, FeatureState> & Sendable,
    action: @escaping @Sendable (Action) -> FeatureAction?
) -> InPlaceReducer<State, Action> {
    { appState, appAction in
        guard let featureAction = action(appAction) else { return }
        reducer(&appState[keyPath: state], featureAction)
    }
}

/// Lifts a feature reducer to an optional part of the app state, such as a presented screen.
///
/// The feature reducer runs for the actions `action` extracts while the state at `state` is not
/// `nil`. A feature action that arrives while it is `nil` (a late response for a dismissed
/// screen) is reported as an issue and changes nothing:
///
/// ```swift
/// struct AppState { var detail: DetailState? }
///
/// let appReducer = combineReducers(
///     listReducer,
///     ifLetReducer(detailReducer, state: \AppState.detail, action: \AppAction.detail)
/// )
/// ```
///
/// - Parameters:
///   - reducer: The feature reducer.
///   - state: The optional part of the app state that the feature reducer owns.
///   - action: A function that returns the feature action embedded in an app action, or `nil`.
///   - fileID: The file the issue for a feature action without state names; the caller's.
///   - line: The line the issue names; the caller's.
/// - Returns: An in-place reducer of the app's state and actions.
public func ifLetReducer<State, Action, FeatureState, FeatureAction>(
    _ reducer: @escaping InPlaceReducer<FeatureState, FeatureAction>,
    state: WritableKeyPath<State, FeatureState?> & Sendable,
    action: @escaping @Sendable (Action) -> FeatureAction?,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> InPlaceReducer<State, Action> {
    let site = "\(fileID):\(line)"
    return { appState, appAction in
        guard let featureAction = action(appAction) else { return }
        guard appState[keyPath: state] != nil else {
            reportMissingChildState(featureAction, what: "its optional state is nil", site: site)
            return
        }
        reducer(&appState[keyPath: state]!, featureAction)
    }
}

/// Lifts a value-form feature reducer to an optional part of the app state.
///
/// The same as the in-place ``ifLetReducer(_:state:action:fileID:line:)-(InPlaceReducer<FeatureState,FeatureAction>,_,(Action)->FeatureAction?,_,_)``, for a feature
/// reducer that returns the next state.
///
/// - Parameters:
///   - reducer: The feature reducer.
///   - state: The optional part of the app state that the feature reducer owns.
///   - action: A function that returns the feature action embedded in an app action, or `nil`.
///   - fileID: The file the issue for a feature action without state names; the caller's.
///   - line: The line the issue names; the caller's.
/// - Returns: An in-place reducer of the app's state and actions.
public func ifLetReducer<State, Action, FeatureState, FeatureAction>(
    _ reducer: @escaping Reducer<FeatureState, FeatureAction>,
    state: WritableKeyPath<State, FeatureState?> & Sendable,
    action: @escaping @Sendable (Action) -> FeatureAction?,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> InPlaceReducer<State, Action> {
    ifLetReducer(inPlaceReducer(reducer), state: state, action: action, fileID: fileID, line: line)
}

/// Lifts a row reducer to every element of a collection of identifiable rows, such as an
/// `IdentifiedArray` of features.
///
/// `action` extracts the row's id and the row action from an app action; the row reducer runs
/// in place on the element with that id. A row action for an id that is not in the collection (a
/// late response for a removed row) is reported as an issue and changes nothing.
///
/// The row is found by its id through ``RowsIndexedByID/index(id:)`` when the collection's
/// type conforms to ``RowsIndexedByID`` (an `IdentifiedArray` does): a row action costs the
/// same in 10,000 rows as in 100. Any other collection is searched linearly, so a row action
/// costs in proportion to the row's position.
///
/// ```swift
/// enum AppAction: Sendable {
///     case row(id: Todo.ID, action: TodoAction)
///
///     var row: (Todo.ID, TodoAction)? {
///         if case .row(let id, let action) = self { (id, action) } else { nil }
///     }
/// }
///
/// let appReducer = forEachReducer(todoReducer, state: \AppState.todos, action: \AppAction.row)
/// ```
///
/// - Parameters:
///   - reducer: The reducer of one row.
///   - state: The collection of rows in the app state.
///   - action: A function that returns the row id and row action embedded in an app action, or
///     `nil`.
///   - fileID: The file the issue for an unknown row names; the caller's.
///   - line: The line the issue names; the caller's.
/// - Returns: An in-place reducer of the app's state and actions.
public func forEachReducer<State, Action, Rows, RowAction>(
    _ reducer: @escaping InPlaceReducer<Rows.Element, RowAction>,
    state: WritableKeyPath<State, Rows> & Sendable,
    action: @escaping @Sendable (Action) -> (Rows.Element.ID, RowAction)?,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> InPlaceReducer<State, Action>
where Rows: MutableCollection & RandomAccessCollection & SendableMetatype, Rows.Element: Identifiable {
    let site = "\(fileID):\(line)"
    let lookup = RowLookup<Rows>()
    return { appState, appAction in
        guard let (id, rowAction) = action(appAction) else { return }
        guard let index = lookup.index(appState[keyPath: state], id) else {
            reportMissingChildState(rowAction, what: "no row has the id \(id)", site: site)
            return
        }
        reducer(&appState[keyPath: state][index], rowAction)
    }
}

/// Lifts a value-form row reducer to every element of a collection of identifiable rows.
///
/// The same as the in-place ``forEachReducer(_:state:action:fileID:line:)-(InPlaceReducer<Rows.Element,RowAction>,_,_,_,_)``.
///
/// - Parameters:
///   - reducer: The reducer of one row.
///   - state: The collection of rows in the app state.
///   - action: A function that returns the row id and row action embedded in an app action.
///   - fileID: The file the issue for an unknown row names; the caller's.
///   - line: The line the issue names; the caller's.
/// - Returns: An in-place reducer of the app's state and actions.
public func forEachReducer<State, Action, Rows, RowAction>(
    _ reducer: @escaping Reducer<Rows.Element, RowAction>,
    state: WritableKeyPath<State, Rows> & Sendable,
    action: @escaping @Sendable (Action) -> (Rows.Element.ID, RowAction)?,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> InPlaceReducer<State, Action>
where Rows: MutableCollection & RandomAccessCollection & SendableMetatype, Rows.Element: Identifiable {
    forEachReducer(inPlaceReducer(reducer), state: state, action: action, fileID: fileID, line: line)
}

/// Reports a feature action that arrived for state that is gone: a dismissed screen or a
/// removed row.
///
/// `lift` names what was lifted at `site`: a reducer, side effects, a feature.
func reportMissingChildState<FeatureAction>(
    _ action: FeatureAction, what: String, site: String, lift: String = "the reducer lifted"
) {
    reportIssue(
        """
        \(action) arrived while \(what) (\(lift) at \(site)); it was ignored. \
        A response for a dismissed screen or a removed row usually means its side effect \
        should have been cancelled with it.
        """)
}
