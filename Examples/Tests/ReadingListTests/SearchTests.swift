import Lockstep
import LockstepTesting
import ReadingList
import Testing

@MainActor
@Suite("Debounced search")
struct SearchTests {
    @Test("The search waits for typing to stop for 300 ms on the clock; each keystroke restarts the wait")
    func debounceWithTestStore() async {
        let clock = ManualClock()
        let requests = CallRecorder<CatalogRequest>()
        let store = TestStore(
            state: AppState(), feature: appFeature,
            services: testServices(clock: clock, requests: requests))

        await store.send(.search(.queryChanged("d"))) {
            $0.search.query = "d"
            $0.search.isSearching = true
        }
        await clock.advance(by: .milliseconds(200))
        await store.send(.search(.queryChanged("du"))) { $0.search.query = "du" }
        await clock.advance(by: .milliseconds(299))
        #expect(requests.count == 0)

        await clock.advance(by: .milliseconds(1))
        await store.receive(.search(.searchFinished(query: "du", .success(["Dune", "Dune Messiah"])))) {
            $0.search.isSearching = false
            $0.search.results = ["Dune", "Dune Messiah"]
        }
        #expect(requests.arguments == [.search("du")])
    }

    @Test("Through the search's child store: a superseded search returns without asking the catalog")
    func debounceThroughChildStore() async {
        let clock = ManualClock()
        let requests = CallRecorder<CatalogRequest>()
        let store = makeStore(services: testServices(clock: clock, requests: requests))
        let search = store.scope(state: \.search, action: AppAction.search)

        let first = search.send(.queryChanged("le"))
        await clock.sleepers(count: 1)
        let second = search.send(.queryChanged("le guin"))
        await first.value
        #expect(requests.count == 0)

        await clock.sleepers(count: 1)
        await clock.advance(by: searchDebounce)
        await second.value

        #expect(search.results == ["The Left Hand of Darkness", "The Dispossessed"])
        #expect(requests.arguments == [.search("le guin")])
        #expect(SearchModel(store: search).lines(onList: ["The Dispossessed"]) == ["  The Left Hand of Darkness", "✓ The Dispossessed"])
    }

    @Test("An answer for a query the user has since cleared is dropped (the reducer compares its query)")
    func staleAnswerIsDropped() async {
        let clock = ManualClock()
        let requests = CallRecorder<CatalogRequest>()
        let store = makeStore(services: testServices(clock: clock, latency: .seconds(1), requests: requests))
        let search = store.scope(state: \.search, action: AppAction.search)

        let searching = search.send(.queryChanged("dune"))
        await clock.sleepers(count: 1)
        await clock.advance(by: searchDebounce)
        await clock.sleepers(count: 1)  // the catalog's call is in flight
        await search.dispatch(.queryChanged(""))
        await clock.advance(by: .seconds(1))
        await searching.value

        #expect(requests.arguments == [.search("dune")])
        #expect(search.state == SearchState())
    }
}
