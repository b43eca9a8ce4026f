import LockstepQuery
import LockstepTesting
import Testing

@Suite("Staleness before the first value")
struct StalenessTests {
    @Test("A query whose staleness predicate says not stale does not fetch on subscription, even with no value yet")
    func notStaleQueryDoesNotFetchOnSubscription() {
        let backend = Backend()
        let client = makeClient()
        let store = client.store(for: NameQuery("ada", backend: backend).staleness(.when { _ in false }))
        let subscription = store.subscribe(with: QueryEventHandler())
        #expect(store.activeTasks.isEmpty)
        #expect(!store.isStale)
        subscription.cancel()
        #expect(backend.calls == 0)
    }

    @Test("A query whose staleness predicate says stale fetches on subscription")
    func staleQueryFetchesOnSubscription() async throws {
        let backend = Backend()
        let client = makeClient()
        let store = client.store(for: NameQuery("ada", backend: backend).staleness(.when { _ in true }))
        let subscription = store.subscribe(with: QueryEventHandler())
        let run = try #require(store.activeTasks.first)
        #expect(try await run.runIfNeeded() == "ada #1")
        subscription.cancel()
    }

    @Test("A store with no value is stale under the rules that judge a value's age")
    func storeWithoutValueIsStaleUnderAgeRules() {
        let client = makeClient()
        let rules: [(String, Staleness<QueryState<String, any Error>>)] = [
            ("immediately", .immediately), ("never", .never), ("after", .after(.seconds(60))),
        ]
        for (name, staleness) in rules {
            let store = client.store(for: NameQuery(name, backend: Backend()).staleness(staleness))
            #expect(store.isStale)
        }
    }
}
