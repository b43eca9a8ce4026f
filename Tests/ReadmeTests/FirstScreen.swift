// The README's first screen: a feature, its SwiftUI view and its TestStore test. The view
// compiles against SwiftUI where it exists, and against the SwiftUIStandIns module on Linux.
#if canImport(SwiftUI)
import SwiftUI
#else
import SwiftUIStandIns
#endif
import LockstepTesting
import Testing

struct QuoteState: Equatable, Sendable { var quote = "", isLoading = false }
enum QuoteAction: Equatable, Sendable { case refreshTapped, quoteLoaded(String) }
struct Quotes: Sendable { var next: @Sendable () async -> String }   // the services

let quoteReducer: InPlaceReducer<QuoteState, QuoteAction> = { state, action in
    switch action {
    case .refreshTapped: state.isLoading = true
    case .quoteLoaded(let quote): (state.isLoading, state.quote) = (false, quote)
    }
}
// Side effects run after the reducer, and report back with actions.
let quoteMiddleware: Middleware<QuoteState, QuoteAction, Quotes> = { state, action, quotes, dispatch in
    if action == .refreshTapped { await dispatch(.quoteLoaded(await quotes.next())) }
}

struct QuoteView: View {
    let store: Store<QuoteState, QuoteAction>   // made once by the app: Store(state:reducer:services:middlewares:)
    var body: some View {
        HStack {
            Text(store.isLoading ? "Loading…" : store.quote)   // observes these two fields alone
            Button("Refresh") { store.send(.refreshTapped) }
        }
    }
}

@Test @MainActor func refreshShowsAQuote() async {
    let store = TestStore(state: QuoteState(), reducer: quoteReducer,
                          services: Quotes(next: { "Less is more." }), middlewares: [quoteMiddleware])
    await store.send(.refreshTapped) { $0.isLoading = true }   // returns once the middleware is done
    await store.receive(.quoteLoaded("Less is more.")) { $0.isLoading = false; $0.quote = "Less is more." }
}

/// The first screen's view, built (with the stand-ins on Linux) on a real store.
@Suite("The README's first screen")
@MainActor
struct FirstScreenTests {
    @Test("Awaiting the dispatch of Refresh waits for the middleware's quote")
    func viewAndStore() async {
        let store = Store(
            state: QuoteState(), reducer: quoteReducer,
            services: Quotes(next: { "Less is more." }), middlewares: [quoteMiddleware])
        _ = QuoteView(store: store).body
        await store.dispatch(.refreshTapped)
        #expect(store.quote == "Less is more.")
        #expect(!store.isLoading)
    }
}
