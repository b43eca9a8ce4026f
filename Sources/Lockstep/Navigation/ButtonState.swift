/// A button of an alert or a confirmation dialog, as a value: its label, its role, and the
/// action it sends when tapped.
///
/// ```swift
/// ButtonState(role: .destructive, action: .confirmDeletion) {
///     TextState("Delete")
/// }
/// ButtonState(role: .cancel) {
///     TextState("Cancel")
/// }
/// ```
///
/// Tapping a button closes its alert or dialog, and sends its action first if it has one: see
/// ``PresentationAction``. A button without an action (a "Cancel" or an "OK") only closes it.
/// Two buttons are equal when their labels, roles and actions are, so a test asserts an alert
/// whole.
public struct ButtonState<Action>: Identifiable {
    /// The button's position in its alert or dialog, so that a view can tell its buttons apart.
    public var id: Int = 0
    /// The role of the button, or `nil` for a plain button.
    public var role: ButtonStateRole?
    /// The action the button sends when tapped, or `nil` for a button that only closes.
    public var action: Action?
    /// The text of the button.
    public var label: TextState

    /// A button that sends `action` when tapped, with the text `label` returns.
    ///
    /// - Parameters:
    ///   - role: The role of the button, or `nil` for a plain button.
    ///   - action: The action the button sends when tapped, or `nil` for a button that only
    ///     closes the alert or dialog.
    ///   - label: Returns the text of the button.
    public init(role: ButtonStateRole? = nil, action: Action? = nil, label: () -> TextState) {
        self.role = role
        self.action = action
        self.label = label()
    }

    /// The same button, sending `transform`'s result for its action: how a feature's alert
    /// becomes an alert of the app.
    ///
    /// - Parameter transform: Turns the button's action into another action.
    /// - Returns: The button with the transformed action.
    public func map<NewAction>(_ transform: (Action) -> NewAction) -> ButtonState<NewAction> {
        var button = ButtonState<NewAction>(role: role, action: action.map(transform)) { label }
        button.id = id
        return button
    }
}

extension ButtonState: Equatable where Action: Equatable {}
extension ButtonState: Hashable where Action: Hashable {}
extension ButtonState: Sendable where Action: Sendable {}

/// Builds the buttons of an alert or a confirmation dialog from the statements of a closure:
/// one ``ButtonState`` a line, with `if`, `if`/`else` and `for` allowed.
///
/// ```swift
/// AlertState {
///     TextState("Delete this book?")
/// } actions: {
///     ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
///     if canArchive {
///         ButtonState(action: .archive) { TextState("Archive") }
///     }
/// }
/// ```
/// The role of a button of an alert or a dialog, which the system uses to style and place it.
public enum ButtonStateRole: Hashable, Sendable {
    /// A button that cancels: shown apart, and the one a dismissal stands for.
    case cancel
    /// A button that deletes or destroys data: shown in red.
    case destructive
}

@resultBuilder
public enum ButtonStateBuilder<Action> {
    /// A block of buttons, in order.
    public static func buildBlock(_ components: [ButtonState<Action>]...) -> [ButtonState<Action>] {
        components.flatMap { $0 }
    }

    /// One button.
    public static func buildExpression(_ button: ButtonState<Action>) -> [ButtonState<Action>] {
        [button]
    }

    /// The buttons of an `if` without `else`, none when its condition is false.
    public static func buildOptional(_ component: [ButtonState<Action>]?) -> [ButtonState<Action>] {
        component ?? []
    }

    /// The buttons of the `if` branch.
    public static func buildEither(first component: [ButtonState<Action>]) -> [ButtonState<Action>] {
        component
    }

    /// The buttons of the `else` branch.
    public static func buildEither(second component: [ButtonState<Action>]) -> [ButtonState<Action>] {
        component
    }

    /// The buttons of every iteration of a `for` loop.
    public static func buildArray(_ components: [[ButtonState<Action>]]) -> [ButtonState<Action>] {
        components.flatMap { $0 }
    }

    /// The buttons of an `if #available` branch.
    public static func buildLimitedAvailability(_ component: [ButtonState<Action>]) -> [ButtonState<Action>] {
        component
    }
}

/// Numbers buttons by their position.
func numbered<Action>(_ buttons: [ButtonState<Action>]) -> [ButtonState<Action>] {
    buttons.enumerated().map { index, button in
        var button = button
        button.id = index
        return button
    }
}
