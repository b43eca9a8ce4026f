/// An alert, as a value of the state: its title, its message and its buttons, each of which may
/// send an action.
///
/// A feature that shows an alert keeps an optional `AlertState` in its state and its actions in
/// a ``PresentationAction`` case of its action; the reducer sets the alert, and the view shows
/// it while it is there:
///
/// ```swift
/// state.alert = AlertState {
///     TextState("Delete \(book.title)?")
/// } actions: {
///     ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
///     ButtonState(role: .cancel) { TextState("Cancel") }
/// } message: {
///     TextState("It can't be undone.")
/// }
/// ```
///
/// The alert's lifter, ``ifLetReducer(state:action:fileID:line:)``, closes the alert when a
/// button is tapped or the alert is dismissed: a reducer handles the actions of the buttons and
/// never sets the alert back to `nil` itself. An alert is `Equatable` when its actions are, so a
/// test asserts it whole.
public struct AlertState<Action>: DismissedByItsButtons {
    /// The title.
    public var title: TextState
    /// The message under the title, or `nil` for none.
    public var message: TextState?
    /// The buttons, in order; an alert without buttons shows an "OK" that only closes it.
    public var buttons: [ButtonState<Action>]

    /// An alert with a title, buttons and an optional message, each given by a closure.
    ///
    /// - Parameters:
    ///   - title: Returns the title.
    ///   - actions: Returns the buttons, one statement a button.
    ///   - message: Returns the message, or `nil` for none.
    public init(
        title: () -> TextState,
        @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
        message: (() -> TextState)? = nil
    ) {
        self.title = title()
        self.buttons = numbered(actions())
        self.message = message?()
    }

    /// The same alert, whose buttons send `transform`'s results: how a feature's alert becomes
    /// an alert of the app.
    ///
    /// - Parameter transform: Turns a button's action into another action.
    /// - Returns: The alert with the transformed actions.
    public func map<NewAction>(_ transform: (Action) -> NewAction) -> AlertState<NewAction> {
        var alert = AlertState<NewAction>(title: { title })
        alert.message = message
        alert.buttons = buttons.map { $0.map(transform) }
        return alert
    }
}

extension AlertState: Equatable where Action: Equatable {}
extension AlertState: Hashable where Action: Hashable {}
extension AlertState: Sendable where Action: Sendable {}

/// A confirmation dialog (an action sheet), as a value of the state: its title, its message and
/// its buttons, each of which may send an action.
///
/// It is kept, presented and closed as an ``AlertState`` is:
///
/// ```swift
/// state.dialog = ConfirmationDialogState(titleVisibility: .visible) {
///     TextState("Share this list?")
/// } actions: {
///     ButtonState(action: .share(.link)) { TextState("Copy link") }
///     ButtonState(action: .share(.mail)) { TextState("Mail") }
///     ButtonState(role: .cancel) { TextState("Cancel") }
/// }
/// ```
public struct ConfirmationDialogState<Action>: DismissedByItsButtons {
    /// Whether the title is shown.
    public var titleVisibility: ConfirmationDialogStateTitleVisibility
    /// The title.
    public var title: TextState
    /// The message under the title, or `nil` for none.
    public var message: TextState?
    /// The buttons, in order.
    public var buttons: [ButtonState<Action>]

    /// A dialog with a title, buttons and an optional message, each given by a closure.
    ///
    /// - Parameters:
    ///   - titleVisibility: Whether the title is shown.
    ///   - title: Returns the title.
    ///   - actions: Returns the buttons, one statement a button.
    ///   - message: Returns the message, or `nil` for none.
    public init(
        titleVisibility: ConfirmationDialogStateTitleVisibility = .automatic,
        title: () -> TextState,
        @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
        message: (() -> TextState)? = nil
    ) {
        self.titleVisibility = titleVisibility
        self.title = title()
        self.buttons = numbered(actions())
        self.message = message?()
    }

    /// The same dialog, whose buttons send `transform`'s results.
    ///
    /// - Parameter transform: Turns a button's action into another action.
    /// - Returns: The dialog with the transformed actions.
    public func map<NewAction>(_ transform: (Action) -> NewAction) -> ConfirmationDialogState<NewAction> {
        var dialog = ConfirmationDialogState<NewAction>(titleVisibility: titleVisibility, title: { title })
        dialog.message = message
        dialog.buttons = buttons.map { $0.map(transform) }
        return dialog
    }
}

extension ConfirmationDialogState: Equatable where Action: Equatable {}
extension ConfirmationDialogState: Hashable where Action: Hashable {}
extension ConfirmationDialogState: Sendable where Action: Sendable {}

/// Whether a confirmation dialog shows its title.
public enum ConfirmationDialogStateTitleVisibility: Hashable, Sendable {
    /// As the platform decides.
    case automatic
    /// Always shown.
    case visible
    /// Never shown.
    case hidden
}

/// A presented value that goes away once one of its buttons is tapped: an alert or a dialog.
/// The presentation lifters close it after the button's action, so no reducer has to.
protocol DismissedByItsButtons {}

/// Whether `value`, or the value of the enum case it is (a destination's `.alert(...)`), is
/// closed by its buttons.
func isDismissedByItsButtons(_ value: Any) -> Bool {
    if value is any DismissedByItsButtons { return true }
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .enum, let payload = mirror.children.first?.value else { return false }
    if payload is any DismissedByItsButtons { return true }
    // A case with several values, or a labeled one, holds them in a tuple.
    return Mirror(reflecting: payload).children.contains { $0.value is any DismissedByItsButtons }
}
