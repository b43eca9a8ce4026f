/// The text of an alert, a confirmation dialog or a button, as a value a reducer stores and a
/// test compares.
///
/// ```swift
/// let title = TextState("Delete this book?")
/// let message: TextState = "It can't be undone."
/// ```
///
/// A view shows it with `Text(state.string)`, or through the SwiftUI modifiers Lockstep gives
/// for ``AlertState`` and ``ConfirmationDialogState``.
public struct TextState: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The text, as it is shown.
    public var string: String

    /// The text `string`, shown as it is.
    ///
    /// - Parameter string: The text.
    public init(_ string: some StringProtocol) {
        self.string = String(string)
    }

    /// The text of a string literal: `"Cancel"`.
    ///
    /// - Parameter value: The text.
    public init(stringLiteral value: String) {
        self.string = value
    }

    /// The text itself.
    public var description: String { string }
}
