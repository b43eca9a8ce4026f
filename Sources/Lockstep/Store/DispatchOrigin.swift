/// Where a dispatched action came from, as a ``Reduction`` reports it to an ``ActionObserver``.
///
/// ```swift
/// let observer = ActionObserver<AppState, AppAction> { reduction in
///   switch reduction.origin {
///   case .external: analytics.track(reduction.action)
///   case .middleware, .effect: break  // follow-ups, not user intent
///   }
/// }
/// ```
public enum DispatchOrigin: Sendable, Equatable, CustomStringConvertible {
    /// Dispatched from outside the store's side effects: by the app, a view, or a test.
    case external
    /// Dispatched by a middleware, through its ``Dispatcher``.
    case middleware
    /// Emitted by a registered ``Effect``, named by where it was created.
    case effect(String)

    public var description: String {
        switch self {
        case .external: "dispatched from outside the store"
        case .middleware: "dispatched by a middleware"
        case .effect(let name): "emitted by the effect created at \(name)"
        }
    }

    /// Whether an effect emitted the action.
    var isEffect: Bool {
        if case .effect = self { true } else { false }
    }
}
