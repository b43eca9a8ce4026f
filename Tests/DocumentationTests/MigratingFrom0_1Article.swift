// The code of the article "Migrating from 0.1.0"
// (Sources/Lockstep/Documentation.docc/MigratingFrom0_1.md): each "after" of the article.
import Lockstep
import LockstepTesting
import Testing

struct KioskSearchState: Equatable, Sendable { var query = "", results: [String] = [] }
enum KioskSearchAction: Equatable, Sendable { case queryChanged(String), resultsLoaded([String]) }
struct KioskDetailState: Equatable, Sendable { var title = "" }
enum KioskDetailAction: Equatable, Sendable { case load, loaded(String) }
struct KioskState: Equatable, Sendable { var search = KioskSearchState(), detail: KioskDetailState?, log: [String] = [] }
enum KioskAction: Equatable, Sendable {
    case search(KioskSearchAction), detail(KioskDetailAction), logged(String)
    var search: KioskSearchAction? { if case .search(let action) = self { action } else { nil } }
    var detail: KioskDetailAction? { if case .detail(let action) = self { action } else { nil } }
}
struct KioskServices: Sendable { var search: @Sendable (String) async -> [String] }

func kioskReducer(_ state: inout KioskState, _ action: KioskAction) {
    switch action {
    case .search(.queryChanged(let query)): state.search.query = query
    case .search(.resultsLoaded(let results)): state.search.results = results
    case .detail(.loaded(let title)): state.detail?.title = title
    case .detail(.load): break
    case .logged(let line): state.log.append(line)
    }
}

let kioskSearchMiddleware: Middleware<KioskSearchState, KioskSearchAction, KioskServices> = { state, action, services, dispatch in
    guard case .queryChanged(let query) = action else { return }
    await dispatch(.resultsLoaded(await services.search(query)))
}
let kioskDetailMiddleware: PlainMiddleware<KioskDetailState, KioskDetailAction> = { _, action, dispatch in
    if action == .load { await dispatch(.loaded("Dune")) }
}
let kioskLoggingMiddleware: PlainMiddleware<KioskState, KioskAction> = { _, action, dispatch in
    if case .search(.queryChanged(let query)) = action { await dispatch(.logged(query)) }
}

// After: a constant list of side effects, composed once.
let kioskSideEffects = SideEffects<KioskState, KioskAction, KioskServices> {
    kioskLoggingMiddleware
    scopeMiddleware(kioskSearchMiddleware, state: \KioskState.search, action: \KioskAction.search, embed: KioskAction.search)
    ifLetMiddleware(kioskDetailMiddleware, state: \KioskState.detail, action: \KioskAction.detail, embed: KioskAction.detail)
}

@MainActor
@Suite("Migrating from 0.1.0")
struct MigratingFrom0_1ArticleTests {
    @Test func builderTakesPlainAndLiftedMiddlewares() async {
        let services = KioskServices(search: { ["\($0) results"] })
        let store = Store(state: KioskState(), reducer: kioskReducer, services: services) {
            kioskLoggingMiddleware
            scopeMiddleware(kioskSearchMiddleware, state: \KioskState.search, action: \KioskAction.search, embed: KioskAction.search)
            ifLetMiddleware(kioskDetailMiddleware, state: \KioskState.detail, action: \KioskAction.detail, embed: KioskAction.detail)
        }
        await store.dispatch(.search(.queryChanged("dune")))
        #expect(store.state.search.results == ["dune results"])
        #expect(store.state.log == ["dune"])
    }

    @Test func constantListIsOneStatement() async {
        let services = KioskServices(search: { ["\($0) results"] })
        let store = Store(state: KioskState(detail: KioskDetailState()), reducer: kioskReducer, services: services) {
            kioskSideEffects
        }
        await store.dispatch(.detail(.load))
        #expect(store.state.detail?.title == "Dune")
    }
}
