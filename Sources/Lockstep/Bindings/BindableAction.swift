/// An action with a case for the bindings of a feature's state: `case binding(BindingAction<State>)`.
///
/// ```swift
/// enum FormAction: BindableAction, Equatable {
///     case binding(BindingAction<FormState>)
///     case saveTapped
/// }
/// ```
///
/// The case is all a conformance needs: it makes ``binding(_:)``, and ``binding-swift.property``
/// finds it by its name. With it, `store.binding(\.title)` binds any field of the state to a
/// control without a case of its own, and ``bindingReducer()`` applies what the control writes.
public protocol BindableAction<State>: Sendable {
    /// The state whose fields the bindings set.
    associatedtype State

    /// The action that carries `action`: the enum case `binding`.
    ///
    /// - Parameter action: The binding action.
    /// - Returns: The action.
    static func binding(_ action: BindingAction<State>) -> Self

    /// The binding action this action carries, or `nil` for an action of another case.
    var binding: BindingAction<State>? { get }
}

extension BindableAction {
    /// The binding action this action carries, found as the payload of its case named `binding`;
    /// `nil` for an action of another case.
    public var binding: BindingAction<State>? {
        guard let child = Mirror(reflecting: self).children.first, child.label == "binding" else { return nil }
        return child.value as? BindingAction<State>
    }

    /// The action that sets the field at `keyPath` to `value`: `.binding(.set(keyPath, value))`.
    ///
    /// ```swift
    /// store.send(.set(\.title, "Standup"))
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The field.
    ///   - value: The field's new value.
    /// - Returns: The action.
    public static func set<Value: Equatable & Sendable>(
        _ keyPath: WritableKeyPath<State, Value> & Sendable,
        _ value: Value
    ) -> Self {
        binding(.set(keyPath, value))
    }
}
