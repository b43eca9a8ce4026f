/// The action a control sends when it writes a field of a feature's state: the field's key path
/// and its new value.
///
/// A feature whose controls edit its state field by field declares one case for all of them,
/// in place of a case per field, and lets ``bindingReducer()`` apply it:
///
/// ```swift
/// enum FormAction: BindableAction, Equatable {
///     case binding(BindingAction<FormState>)
///     case saveTapped
/// }
///
/// TextField("Title", text: store.binding(\.title))   // sends .binding(.set(\.title, "…"))
/// ```
///
/// Two binding actions are equal when they set the same field to equal values, so a test
/// sends and receives them as any other action:
///
/// ```swift
/// await store.send(.binding(.set(\.title, "Standup"))) { $0.title = "Standup" }
/// ```
///
/// A middleware reacts to the binding of one field with a pattern on its key path:
/// `case .binding(\.query):`.
public struct BindingAction<Root>: Sendable {
    /// The field the action sets.
    public let keyPath: PartialKeyPath<Root> & Sendable
    /// The new value, as written.
    let value: any Sendable
    private let write: @Sendable (inout Root) -> Void
    private let isEqual: @Sendable (any Sendable) -> Bool

    /// The action that sets the field at `keyPath` to `value`.
    ///
    /// ```swift
    /// store.send(.binding(.set(\.title, "Standup")))
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The field.
    ///   - value: The field's new value.
    /// - Returns: The binding action.
    public static func set<Value: Equatable & Sendable>(
        _ keyPath: WritableKeyPath<Root, Value> & Sendable,
        _ value: Value
    ) -> Self {
        BindingAction(
            keyPath: keyPath,
            value: value,
            write: { $0[keyPath: keyPath] = value },
            isEqual: { ($0 as? Value) == value }
        )
    }

    /// Sets the field of `root` to the action's value: what ``bindingReducer()`` does.
    ///
    /// - Parameter root: The state to change.
    public func apply(to root: inout Root) {
        write(&root)
    }

    /// The value the action sets the field at `keyPath` to, or `nil` when it sets another field.
    ///
    /// ```swift
    /// if let query = binding.value(at: \.query) { … }
    /// ```
    ///
    /// - Parameter keyPath: The field.
    /// - Returns: The new value of the field, or `nil`.
    public func value<Value>(at keyPath: KeyPath<Root, Value>) -> Value? {
        (self.keyPath as AnyKeyPath) == (keyPath as AnyKeyPath) ? value as? Value : nil
    }

    /// Whether `bindingAction` sets the field at `keyPath`: the pattern of a `case` that reacts
    /// to one field.
    ///
    /// ```swift
    /// switch action {
    /// case .binding(\.query):
    ///     await search(state.query)
    /// default:
    ///     break
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The field.
    ///   - bindingAction: The action.
    /// - Returns: Whether the action sets that field.
    public static func ~= <Value>(keyPath: WritableKeyPath<Root, Value>, bindingAction: Self) -> Bool {
        (bindingAction.keyPath as AnyKeyPath) == (keyPath as AnyKeyPath)
    }
}

extension BindingAction: Equatable {
    /// Whether both actions set the same field to equal values.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        (lhs.keyPath as AnyKeyPath) == (rhs.keyPath as AnyKeyPath) && lhs.isEqual(rhs.value)
    }
}

extension BindingAction: CustomStringConvertible {
    /// The action as it is written: `.set(\Form.title, "Standup")`.
    public var description: String {
        var value = ""
        debugPrint(self.value, terminator: "", to: &value)
        return ".set(\(keyPath), \(value))"
    }
}

extension BindingAction: CustomReflectable {
    /// The field and its value, so that a failure's diff shows them.
    public var customMirror: Mirror {
        Mirror(self, children: ["set": (String(describing: keyPath), value)], displayStyle: .enum)
    }
}
