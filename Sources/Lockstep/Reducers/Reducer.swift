/// A pure function that computes the next state from the current state and an action.
///
/// Any function with this shape is a reducer, so a plain function such as
///
/// ```swift
/// func todayReducer(state: TodayState, action: TodayAction) -> TodayState
/// ```
///
/// can be handed to ``Store`` as it is. A reducer must not perform side effects: it runs
/// synchronously on the store's actor while observers wait for the result. Side effects
/// belong in a ``Middleware``.
///
/// Larger apps build their reducer from feature reducers with ``combineReducers(_:)-(Reducer<State,Action>...)`` and
/// ``scopeReducer(_:state:action:)->Reducer<State,Action>``. The type is `@Sendable` so that a composed reducer can be
/// kept in a global `let appReducer = combineReducers(...)`; ``Store`` itself accepts any
/// function of this shape.
public typealias Reducer<State, Action> = @Sendable (_ state: State, _ action: Action) -> State

/// Combines reducers into one that runs each of them in order on every action.
///
/// Each reducer receives the state the previous one returned, so the order is the order of
/// the arguments:
///
/// ```swift
/// let appReducer = combineReducers(
///     scopeReducer(todayReducer, state: \AppState.today, action: \AppAction.today),
///     scopeReducer(scheduleReducer, state: \AppState.schedule, action: \AppAction.schedule)
/// )
/// ```
///
/// - Parameter reducers: The reducers to run, in order.
/// - Returns: A reducer that threads the state through every reducer in `reducers`.
public func combineReducers<State, Action>(
    _ reducers: Reducer<State, Action>...
) -> Reducer<State, Action> {
    combineReducers(reducers)
}

/// Combines an array of reducers into one that runs each of them in order on every action.
///
/// This is the array form of ``combineReducers(_:)-(Reducer<State,Action>...)``, for reducer lists built at run time.
///
/// ```swift
/// var reducers: [Reducer<AppState, AppAction>] = [coreReducer]
/// if settings.showsSchedule { reducers.append(scheduleReducer) }
/// let appReducer = combineReducers(reducers)
/// ```
///
/// - Parameter reducers: The reducers to run, in order.
/// - Returns: A reducer that threads the state through every reducer in `reducers`.
public func combineReducers<State, Action>(
    _ reducers: [Reducer<State, Action>]
) -> Reducer<State, Action> {
    switch reducers.count {
    case 0:
        return { state, _ in state }
    case 1:
        return reducers[0]
    default:
        return { state, action in
            var state = state
            for reducer in reducers {
                state = reducer(state, action)
            }
            return state
        }
    }
}

/// Lifts a feature reducer to a reducer of the whole app's state and actions.
///
/// A feature reducer owns one part of the app state (`AppState.today`) and one case of the app
/// action (`AppAction.today(TodayAction)`). The scoped reducer runs the feature reducer only
/// for actions that `action` extracts a feature action from, on the part of the state that
/// `state` names, and leaves the rest of the state untouched:
///
/// ```swift
/// enum AppAction: Sendable {
///     case today(TodayAction)
///     case schedule(ScheduleAction)
///
///     var today: TodayAction? {
///         if case .today(let action) = self { action } else { nil }
///     }
/// }
///
/// let scopedToday = scopeReducer(todayReducer, state: \AppState.today, action: \AppAction.today)
/// ```
///
/// A key path to an optional property, as above, or any closure returning `nil` for the other
/// cases extracts the feature action.
///
/// - Parameters:
///   - reducer: The feature reducer.
///   - state: The part of the app state that the feature reducer owns.
///   - action: A function that returns the feature action embedded in an app action, or `nil`
///     when the app action belongs to another feature.
/// - Returns: A reducer of the app's state and actions.
public func scopeReducer<State, Action, FeatureState, FeatureAction>(
    _ reducer: @escaping Reducer<FeatureState, FeatureAction>,
    state: WritableKeyPath<State, FeatureState> & Sendable,
    action: @escaping @Sendable (Action) -> FeatureAction?
) -> Reducer<State, Action> {
    { appState, appAction in
        guard let featureAction = action(appAction) else { return appState }
        return reducing(appState, at: state, with: reducer, featureAction)
    }
}

/// `state` with `reducer` applied to its part at `keyPath`.
private func reducing<State, Part, Action>(
    _ state: State, at keyPath: WritableKeyPath<State, Part>, with reducer: Reducer<Part, Action>, _ action: Action
) -> State {
    var state = state
    state[keyPath: keyPath] = reducer(state[keyPath: keyPath], action)
    return state
}


/// Lifts a reducer of one property to a reducer of the whole state; it sees every action.
///
/// A reducer that owns a slice of the state and reacts to actions of any feature (a score that
/// every `ResetScore` clears) needs no action extraction: give the property's key path and the
/// reducer of its value, and combine the results:
///
/// ```swift
/// struct ScoreboardState: Equatable {
///     var home = 0
///     var away = 0
/// }
///
/// func homeReducer(state: Int, action: any ScoreboardAction) -> Int {
///     switch action {
///     case is HomeScore: state + 1
///     case is ResetScore: 0
///     default: state
///     }
/// }
///
/// let scoreboardReducer = combineReducers(
///     forKey(\ScoreboardState.home, use: homeReducer),
///     forKey(\ScoreboardState.away, use: awayReducer)
/// )
/// ```
///
/// It is `scopeReducer(_:state:action:)` with an action function that keeps every action.
///
/// - Parameters:
///   - keyPath: The property of the state that `reducer` owns.
///   - reducer: The reducer of the property's value, called with every action.
/// - Returns: A reducer of the whole state that changes only the property at `keyPath`.
public func forKey<State, Action, Value>(
    _ keyPath: WritableKeyPath<State, Value> & Sendable,
    use reducer: @escaping Reducer<Value, Action>
) -> Reducer<State, Action> {
    { state, action in reducing(state, at: keyPath, with: reducer, action) }
}

/// Lifts an in-place reducer of one property to an in-place reducer of the whole state; it sees
/// every action.
///
/// The in-place form of ``forKey(_:use:)-(_,Reducer<Value,Action>)``: the property is changed where it is, with no
/// copy of the state:
///
/// ```swift
/// let scoreboardReducer: InPlaceReducer<ScoreboardState, any ScoreboardAction> = combineReducers(
///     forKey(\.home, use: { (home: inout Int, action: any ScoreboardAction) in
///         if action is HomeScore { home += 1 }
///     }),
///     forKey(\.away, use: awayReducer)
/// )
/// ```
///
/// - Parameters:
///   - keyPath: The property of the state that `reducer` owns.
///   - reducer: The in-place reducer of the property's value, called with every action.
/// - Returns: An in-place reducer of the whole state that changes only the property at `keyPath`.
public func forKey<State, Action, Value>(
    _ keyPath: WritableKeyPath<State, Value> & Sendable,
    use reducer: @escaping InPlaceReducer<Value, Action>
) -> InPlaceReducer<State, Action> {
    { state, action in reducer(&state[keyPath: keyPath], action) }
}
