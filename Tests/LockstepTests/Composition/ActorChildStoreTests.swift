import Lockstep
import Testing

// A feature's child store of an ActorStore: its part of the state, its own actions, dispatched
// through the store's reducer and middlewares.

private struct LookupState: Equatable, Sendable {
    var query = ""
    var results: [String] = []
}

private enum LookupAction: Equatable, Sendable {
    case queryChanged(String)
    case resultsLoaded([String])
}

private struct BookDetail: Equatable, Sendable {
    var title: String
    var isFavorite = false
}

private enum BookAction: Equatable, Sendable {
    case toggleFavorite
}

private struct LibraryState: Equatable, Sendable {
    var search = LookupState()
    var detail: BookDetail?
    var dispatchedCount = 0
}

private enum LibraryAction: Equatable, Sendable {
    case search(LookupAction)
    case detail(BookAction)
    case open(String)
}

private func libraryReducer(_ state: inout LibraryState, _ action: LibraryAction) {
    state.dispatchedCount += 1
    switch action {
    case .search(.queryChanged(let query)):
        state.search.query = query
    case .search(.resultsLoaded(let results)):
        state.search.results = results
    case .detail(.toggleFavorite):
        state.detail?.isFavorite.toggle()
    case .open(let title):
        state.detail = BookDetail(title: title)
    }
}

/// Answers a query with the titles that start with it, as a search service would.
private let lookupMiddleware: PlainMiddleware<LibraryState, LibraryAction> = { _, action, dispatch in
    guard case .search(.queryChanged(let query)) = action else { return }
    let titles = ["Dune", "Dune Messiah", "Emma"].filter { $0.lowercased().hasPrefix(query) }
    await dispatch(.search(.resultsLoaded(titles)))
}

private func makeStore() -> ActorStore<LibraryState, LibraryAction> {
    ActorStore(state: LibraryState(), reducer: libraryReducer, middlewares: [lookupMiddleware])
}

/// Feature code written against the protocol: it runs on the store or on a child store.
private func search<S: ActorStoreProtocol<LookupState, LookupAction>>(_ query: String, in store: S) async -> [String] {
    await store.dispatch(.queryChanged(query))
    return await store.state.results
}

@Suite("ActorStore child stores")
struct ActorChildStoreTests {
    @Test("A child store's dispatch runs the app's reducer and middlewares and returns when they are done")
    func childDispatchKeepsTheContract() async {
        let store = makeStore()
        let searchStore = store.scope(state: \.search, action: LibraryAction.search)

        await searchStore.dispatch(.queryChanged("du"))

        #expect(await searchStore.state == LookupState(query: "du", results: ["Dune", "Dune Messiah"]))
        #expect(await store.state.dispatchedCount == 2, "the query and the middleware's follow-up")
        await searchStore.dispatch(action: .queryChanged("e"))
        #expect(await store.state.search.results == ["Emma"])
    }

    @Test("Code written against ActorStoreProtocol runs on a child store")
    func protocolCodeRunsOnAChild() async {
        let store = makeStore()
        let results = await search("em", in: store.scope(state: \.search, action: LibraryAction.search))
        #expect(results == ["Emma"])
    }

    @Test("A child's select follows its part: distinct values, changes elsewhere skipped")
    func childSelectFollowsThePart() async {
        let store = makeStore()
        let searchStore = store.scope(state: \.search, action: LibraryAction.search)
        var results = searchStore.select(\.results, bufferingPolicy: .unbounded).makeAsyncIterator()
        #expect(await results.next() == [])

        await store.dispatch(.open("Emma"))
        await searchStore.dispatch(.queryChanged("dune"))

        #expect(await results.next() == ["Dune", "Dune Messiah"], "the open and the query change are skipped")
        var states = searchStore.states(bufferingPolicy: .unbounded).makeAsyncIterator()
        #expect(await states.next()?.query == "dune")
    }

    @Test("A child of an optional part reads nil while the part is absent; scoping nests")
    func optionalPartAndNestedScopes() async {
        let store = makeStore()
        let detailStore = store.scope(state: \.detail, action: LibraryAction.detail)
        #expect(await detailStore.state == nil)

        await store.dispatch(.open("Dune"))
        await detailStore.dispatch(.toggleFavorite)
        #expect(await detailStore.state == BookDetail(title: "Dune", isFavorite: true))

        let resultsStore = store
            .scope(state: \.search, action: LibraryAction.search)
            .scope(state: \.results, action: { (action: LookupAction) in action })
        await resultsStore.dispatch(.queryChanged("du"))
        #expect(await resultsStore.state == ["Dune", "Dune Messiah"])
    }

    @Test("A child store keeps its store alive")
    func childKeepsTheStoreAlive() async {
        var store: ActorStore<LibraryState, LibraryAction>? = makeStore()
        weak let released = store
        let searchStore = store!.scope(state: \.search, action: LibraryAction.search)
        store = nil

        #expect(released != nil)
        await searchStore.dispatch(.queryChanged("em"))
        #expect(await searchStore.state.results == ["Emma"])
    }
}
