// expected-error: lifted middlewares are composed in the side-effect builder
// Two features' side effects added with `+` and handed to `middlewares:`, as 0.1.0 apps did: the
// compiler names the builder.
import Lockstep

struct AppState: Sendable { var count = 0 }
enum AppAction: Sendable { case tap }

let first = SideEffects<AppState, AppAction, Void> { { _, _, _ in } as PlainMiddleware<AppState, AppAction> }
let second = SideEffects<AppState, AppAction, Void> { { _, _, _ in } as PlainMiddleware<AppState, AppAction> }

@MainActor func makeStore() -> Store<AppState, AppAction> {
    Store(state: AppState(), reducer: { state, _ in state }, middlewares: first + second)
}
