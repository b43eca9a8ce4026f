/// A store's middlewares and their services, called one after another by one function: the
/// runner's fast path for a store that calls all its middlewares for every action.
///
/// A middleware with its services bound (``BoundMiddleware``) is a closure that calls the app's
/// middleware, so each call through it is two async calls. Here the loop over the middlewares is
/// built where the services type is known, and calls each middleware itself: one async call a
/// middleware.
@usableFromInline
struct MiddlewareChain<State, Action: Sendable>: Sendable {
    /// Calls middleware `first`, then, while `queue` has one not started yet, the next: the body
    /// of one child task of ``SideEffectRun/runChained(isolation:)``. With no queue it calls
    /// middleware `first` alone.
    @usableFromInline
    let run: @Sendable (
        _ first: Int, _ queue: MiddlewareQueue?, _ state: State, _ action: Action, _ dispatch: Dispatcher<Action>
    ) async -> Void

    init<Services: Sendable>(_ middlewares: [Middleware<State, Action, Services>], services: Services) {
        run = { first, queue, state, action, dispatch in
            var index = first
            while true {
                await middlewares[index](state, action, services, dispatch)
                guard let next = queue?.take() else { return }
                index = next
            }
        }
    }
}

/// Binds `services` into each middleware: what every store initializer that takes services does
/// before building the store (the test toolkit's too).
package func bind<State, Action: Sendable, Services: Sendable>(
    _ middlewares: [Middleware<State, Action, Services>], to services: Services
) -> [PlainMiddleware<State, Action>] {
    middlewares.map { middleware in
        { state, action, dispatch in
            await middleware(state, action, services, dispatch)
        }
    }
}
