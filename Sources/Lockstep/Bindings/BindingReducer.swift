/// The reducer that applies the bindings of a feature's state: for `.binding(.set(\.title, x))`
/// it sets `title` to `x`, and it leaves every other action to the feature's own reducer.
///
/// Combine it with the feature's reducer, first, as TCA's `BindingReducer()` comes first in a
/// feature's body:
///
/// ```swift
/// let formReducer: InPlaceReducer<FormState, FormAction> = combineReducers(
///     bindingReducer(),
///     { state, action in
///         switch action {
///         case .binding(\.title):
///             state.isDirty = true
///         case .binding:
///             break
///         case .saveTapped:
///             state.isSaving = true
///         }
///     }
/// )
/// ```
///
/// The feature's reducer still sees the binding actions after this one applied them, so it can
/// react to the change of one field with `case .binding(\.title):`.
///
/// - Returns: An in-place reducer of the feature's state and actions.
public func bindingReducer<State, Action: BindableAction>() -> InPlaceReducer<State, Action>
where Action.State == State {
    { state, action in
        action.binding?.apply(to: &state)
    }
}
