/// The actions of a presented child (a sheet, an alert, a dialog, a destination of several
/// kinds): the child's own actions, and its dismissal.
///
/// The app's action has a case that carries them, and the state an optional part for the child:
///
/// ```swift
/// struct BookState: Equatable, Sendable {
///     var alert: AlertState<AlertAction>?
/// }
///
/// enum BookAction: Equatable, Sendable {
///     case alert(PresentationAction<AlertAction>)
///     case deleteTapped
/// }
/// ```
///
/// ``ifLetReducer(state:action:fileID:line:)`` (or, with a child reducer,
/// ``ifLetReducer(_:state:action:fileID:line:)-(InPlaceReducer<FeatureState,FeatureAction>,_,(Action)->PresentationAction<FeatureAction>?,_,_)``)
/// sets the part to `nil` on ``dismiss``, and after the action of an alert's or a dialog's button.
public enum PresentationAction<Action> {
    /// An action of the presented child: a button of an alert, or the child's own action.
    case presented(Action)
    /// The child goes away: the user swiped the sheet down, or the child dismissed itself.
    case dismiss

    /// The child's action of a ``presented(_:)`` action, or `nil` for ``dismiss``.
    public var presented: Action? {
        if case .presented(let action) = self { action } else { nil }
    }
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}
extension PresentationAction: Sendable where Action: Sendable {}
