// expected-error: lifted middlewares are composed in the side-effect builder
// Lockstep 0.1.0 took lifted middlewares in the `middlewares:` array; they are side effects now,
// and the compiler names the builder instead of a type mismatch.
import Lockstep

struct Search: Sendable { var query = "" }
struct AppState: Sendable { var search = Search() }
enum SearchAction: Sendable { case search }
enum AppAction: Sendable { case search(SearchAction) }
struct Services: Sendable {}

let searchMiddleware: Middleware<Search, SearchAction, Services> = { _, _, _, _ in }

@MainActor func makeStore() -> Store<AppState, AppAction> {
    Store(
        state: AppState(),
        reducer: { state, _ in state },
        services: Services(),
        middlewares: [
            scopeMiddleware(searchMiddleware, state: \AppState.search, action: { action -> SearchAction? in
                guard case .search(let search) = action else { return nil }
                return search
            }, embed: AppAction.search)
        ]
    )
}
