// The Modular apps article's stack of features: a bookcase whose screens are one feature, lifted
// with one call.
import Lockstep
import LockstepTesting
import Testing

struct BookScreen: Equatable, Sendable {
    var title: String
    var summary: String?
}

enum BookScreenAction: Equatable, Sendable {
    case task
    case summaryLoaded(String)
}

struct CatalogClient: Sendable {
    var summary: @Sendable (String) async -> String
}

let bookScreenFeature = Feature<BookScreen, BookScreenAction, CatalogClient>(reducer: { screen, action in
    if case .summaryLoaded(let summary) = action { screen.summary = summary }
}) {
    { screen, action, catalog, dispatch in
        guard action == .task else { return }
        await dispatch(.summaryLoaded(await catalog.summary(screen.title)))
    } as Middleware<BookScreen, BookScreenAction, CatalogClient>
}

struct BookcaseState: Equatable, Sendable {
    var path = StackState<BookScreen>()
}

enum BookcaseAction: Equatable, Sendable {
    case path(StackAction<BookScreen, BookScreenAction>)
    case bookTapped(String)

    var path: StackAction<BookScreen, BookScreenAction>? {
        if case .path(let action) = self { action } else { nil }
    }
}

struct BookcaseServices: Sendable {
    var catalog: CatalogClient
}

let bookcaseReducer: InPlaceReducer<BookcaseState, BookcaseAction> = { state, action in
    if case .bookTapped(let title) = action { state.path.append(BookScreen(title: title)) }
}

let bookcaseFeature = Feature<BookcaseState, BookcaseAction, BookcaseServices>(reducer: bookcaseReducer)
    .forEach(state: \.path, action: { $0.path }, embed: BookcaseAction.path, services: \.catalog) {
        bookScreenFeature
    }

@MainActor
@Suite("The Modular apps article's stack of features")
struct ModularAppsStackTests {
    @Test func aScreenPushedOntoTheBookcaseLoadsItsSummaryWithItsOwnServices() async {
        let store = TestStore(
            state: BookcaseState(), feature: bookcaseFeature,
            services: BookcaseServices(catalog: CatalogClient(summary: { "About \($0)" })))
        await store.send(.bookTapped("Dune")) { $0.path[id: 0] = BookScreen(title: "Dune") }
        await store.send(.path(.element(id: 0, action: .task)))
        await store.receive(.path(.element(id: 0, action: .summaryLoaded("About Dune")))) {
            $0.path[id: 0]?.summary = "About Dune"
        }
        await store.send(.path(.popFrom(id: 0))) { $0.path.removeAll() }
    }
}
