/// A middleware that needs no services: the form ``Store/init(state:reducer:middlewares:effects:observers:)-(_,(State,Action)->State,_,_,_)``
/// takes. It receives the state the reducer returned for `action`, the action, and a
/// ``Dispatcher`` for follow-up actions.
///
/// ```swift
/// let countdown: PlainMiddleware<Counter, CounterAction> = { _, action, dispatch in
///   guard case .countdown(let n) = action, n > 0 else { return }
///   await dispatch(.countdown(n - 1))
/// }
/// let store = Store(state: Counter(), reducer: counterReducer, middlewares: [countdown])
/// ```
public typealias PlainMiddleware<State, Action: Sendable> = @Sendable (
    _ state: State,
    _ action: Action,
    _ dispatch: Dispatcher<Action>
) async -> Void

/// `middleware` as a middleware that is handed services and ignores them.
@usableFromInline
func ignoringServices<State, Action, Services>(
    _ middleware: @escaping PlainMiddleware<State, Action>
) -> Middleware<State, Action, Services> {
    { state, action, _, dispatch in await middleware(state, action, dispatch) }
}
