import Lockstep
import LockstepTesting
import ReadingList
import Testing

// The article "Composing features" quotes this: feature code written against
// ActorStoreProtocol, run on an ActorStore's child store.

func search<S: ActorStoreProtocol<SearchState, SearchAction>>(_ query: String, in store: S) async -> [String] {
    await store.dispatch(.queryChanged(query))
    return await store.state.results
}

/// The titles the search finds for "du", on an actor store of the app.
func searchTitles(services: ReadingListServices) async -> [String] {
    let store = ActorStore(state: AppState(), feature: appFeature, services: services)
    let titles = await search("du", in: store.scope(state: \.search, action: AppAction.search))
    return titles
}

@Suite("The app on an actor store")
struct ActorStoreTests {
    @Test("The search's child store of an actor store runs the debounced search")
    func searchOnAnActorStore() async {
        let clock = ManualClock()
        let titles = Task { await searchTitles(services: testServices(clock: clock)) }
        await clock.sleepers(count: 1)
        await clock.advance(by: searchDebounce)
        #expect(await titles.value == ["Dune", "Dune Messiah"])
    }
}
