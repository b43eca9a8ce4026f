// expected-error: 'async' call in a function that does not support concurrency
// A store's dispatch is `async`: it returns when the action and every side effect it caused are
// finished. A button's action is synchronous, so it cannot call it; it wraps the dispatch in a
// `Task` (or calls `store.send(_:)`, which does).
import Lockstep

/// A stand-in for SwiftUI's button.
struct Button {
    init(_ title: String, action: @escaping @MainActor () -> Void) {}
}

enum Action: Sendable { case load }

@MainActor
func loadButton(store: Store<Int, Action>) -> Button {
    Button("Load") {
        store.dispatch(action: .load)  // ERROR
    }
}
