import Clocks
import Foundation
@testable import LockstepQuery
import LockstepTesting
import Testing

@Suite("Cache API")
struct CacheAPITests {
    @Test func aDefaultValueIsHeldBeforeTheFirstFetchAndAfterAReset() async throws {
        let store = makeClient(automaticFetching: false)
            .store(for: NameQuery("ada", backend: Backend()).defaultValue("nobody"))
        #expect(store.currentValue == "nobody")
        #expect(store.status == .idle)
        #expect(store.isStale)

        try await store.fetch()
        #expect(store.currentValue == "ada #1")

        store.resetState()
        #expect(store.currentValue == "nobody")
        #expect(store.status == .idle)
    }

    @Test func storesMatchingOfATypeReturnsTypedStores() async throws {
        let client = makeClient()
        let backend = Backend()
        _ = client.store(for: NameQuery("ada", backend: backend))
        _ = client.store(for: NameQuery("bob", backend: backend))
        _ = client.store(for: RecordName(backend: backend))

        let names = client.stores(matching: ["names"], of: QueryState<String, any Error>.self)

        #expect(Set(names.keys) == [["names", "ada"], ["names", "bob"]])
        names[["names", "ada"]]?.currentValue = "edited"
        #expect(client.store(for: NameQuery("ada", backend: backend)).currentValue == "edited")
        #expect(client.store(with: ["names", "bob"]) === names[["names", "bob"]])
    }

    @Test func anUnknownStoreTypeIsReportedAndTheCacheKeepsWorking() async throws {
        let client = makeClient()
        let backend = Backend()
        _ = client.store(for: NameQuery("ada", backend: backend))

        withKnownIssue {
            let stores = client.stores(matching: ["names"], of: QueryState<Int, any Error>.self)
            #expect(stores.isEmpty)
        } matching: { issue in
            issue.description.contains("QueryState<Int")
        }
        // An empty match is no mistake, and reports nothing.
        #expect(client.stores(matching: ["nothing"], of: QueryState<Int, any Error>.self).isEmpty)
        #expect(try await client.store(for: NameQuery("ada", backend: backend)).fetch() == "ada #1")
    }

    @Test func withStoresRemovesTheStoresTheClosureDrops() async throws {
        let client = makeClient()
        let backend = Backend()
        let ada = client.store(for: NameQuery("ada", backend: backend))
        let bob = client.store(for: NameQuery("bob", backend: backend))
        let subscription = bob.subscribe(with: QueryEventHandler())
        await client.waitUntilIdle()

        let kept = client.withStores(matching: ["names"], of: QueryState<String, any Error>.self) {
            stores in
            for store in stores.values { store.setResult(to: .failure(BackendError(call: 0))) }
            stores = stores.filter { $0.value.subscriberCount > 0 }
            return stores.count
        }

        #expect(kept == 1)
        #expect(ada.error as? BackendError == BackendError(call: 0))
        #expect(client.store(with: ["names", "ada"]) == nil)
        #expect(client.store(for: NameQuery("ada", backend: backend)) !== ada)
        #expect(client.store(for: NameQuery("bob", backend: backend)) === bob)
        subscription.cancel()
    }

    @Test func withStoresCanPutBackAStoreItRemoved() {
        let client = makeClient()
        let ada = client.store(for: NameQuery("ada", backend: Backend()))
        client.clearStores()

        client.withStores(matching: ["names"]) { stores in stores[ada.path] = ada }

        #expect(client.store(with: ada.path) === ada)
    }

    @Test func setResultSetsAValueOrAnErrorByHand() {
        let store = makeClient(automaticFetching: false).store(for: NameQuery("ada", backend: Backend()))
        let log = StateLog<QueryState<String, any Error>>()
        let subscription = store.subscribe(with: QueryEventHandler { state, _ in log.append(state) })

        store.setResult(to: .success("by hand"))
        #expect(store.currentValue == "by hand")
        #expect(store.status == .success)
        #expect(store.state.valueUpdateCount == 1)

        store.setResult(to: .failure(BackendError(call: 9)))
        #expect(store.currentValue == "by hand")
        #expect(store.status == .failure)
        #expect(store.error as? BackendError == BackendError(call: 9))
        #expect(store.state.errorUpdateCount == 1)
        #expect(log.all.map(\.status) == [.idle, .success, .failure])
        subscription.cancel()
    }

    @Test func subscribersHearStoresAddedAndRemoved() async throws {
        let clock = TestClock()
        let client = makeClient(clock: clock, evictionDelay: .seconds(10))
        let changes = StateLog<String>()
        let subscription = client.subscribe(matching: ["names"]) { change in
            for path in change.storesAdded.keys { changes.append("added \(path)") }
            for path in change.storesRemoved.keys { changes.append("removed \(path)") }
        }
        let backend = Backend()

        _ = client.store(for: NameQuery("ada", backend: backend))
        _ = client.store(for: NameQuery("ada", backend: backend))
        _ = client.store(for: RecordName(backend: backend))  // another path: not heard
        client.clearStores(matching: ["names", "ada"])
        _ = client.store(for: NameQuery("bob", backend: backend))
        await clock.advance(by: .seconds(10))
        _ = client.stores(matching: [])  // timed eviction is applied on the next look

        #expect(
            changes.all == [
                #"added ["names", "ada"]"#, #"removed ["names", "ada"]"#,
                #"added ["names", "bob"]"#, #"removed ["names", "bob"]"#,
            ])
        subscription.cancel()
        _ = client.store(for: NameQuery("carl", backend: backend))
        #expect(changes.all.count == 4)
    }

    @Test func evictUnusedStoresForgetsOnlyStoresNotInUse() async throws {
        let backend = Backend(gated: true)
        let client = makeClient(automaticFetching: false, evictionDelay: nil)
        let idle = client.store(for: NameQuery("idle", backend: backend))
        let watched = client.store(for: NameQuery("watched", backend: backend))
        let busy = client.store(for: NameQuery("busy", backend: backend))
        let subscription = watched.subscribe(with: QueryEventHandler())
        let fetch = Task { try await busy.fetch() }
        await backend.gate!.arrival()

        let evicted = client.evictUnusedStores()

        #expect(evicted == [idle.path])
        #expect(client.store(with: idle.path) == nil)
        #expect(client.store(with: watched.path) === watched)
        #expect(client.store(with: busy.path) === busy)
        backend.gate!.open()
        _ = try await fetch.value
        subscription.cancel()
        #expect(Set(client.evictUnusedStores(matching: ["names"])) == [watched.path, busy.path])
    }

    @Test func aZeroEvictionDelayIsReportedAndTheCacheKeepsWorking() async throws {
        var client: OperationClient?
        withKnownIssue {
            client = OperationClient(evictionDelay: .zero)
        } matching: { issue in
            issue.description.contains("evictionDelay")
        }
        let store = try #require(client).store(for: NameQuery("ada", backend: Backend()))
        #expect(try await store.fetch() == "ada #1")
    }

    @Test func retryLatestRunsTheLatestArgumentsAgain() async throws {
        let backend = Backend(failures: 1)
        let store = makeClient().store(for: RecordName(backend: backend))
        await #expect(throws: BackendError(call: 1)) { try await store.mutate(with: "ada") }

        #expect(try await store.retryLatest() == "ada #2")
        #expect(store.state.history.map(\.arguments) == ["ada", "ada"])
        #expect(store.state.history.map(\.status) == [.failure, .success])
    }

    @Test func retryLatestWithoutARunIsReportedAndThrows() async throws {
        let store = makeClient().store(for: RecordName(backend: Backend()))
        await withKnownIssue {
            await #expect(throws: NoLatestMutationError(path: store.path)) {
                try await store.retryLatest()
            }
        } matching: { issue in
            issue.description.contains("retryLatest()")
        }
        #expect(try await store.mutate(with: "ada") == "ada #1")
    }

    @Test func mutationEventsCarryTheirArguments() async throws {
        let store = makeClient().store(for: RecordName(backend: Backend()))
        let events = StateLog<String>()
        let subscription = store.subscribe(
            with: MutationEventHandler(
                onMutatingStarted: { name, _ in events.append("started \(name)") },
                onMutationResultReceived: { name, result, _ in
                    events.append("\(name) -> \((try? result.get()) ?? "error")")
                },
                onMutatingEnded: { name, _ in events.append("ended \(name)") }))

        try await store.mutate(with: "ada")
        try await store.retryLatest()

        #expect(
            events.all == [
                "started ada", "ada -> ada #1", "ended ada", "started ada", "ada -> ada #2", "ended ada",
            ])
        subscription.cancel()
    }

    @Test func aFetchsHandlerHearsThatFetchAlone() async throws {
        let backend = Backend()
        backend.failNext(1)
        let store = makeClient(automaticFetching: false)
            .store(for: NameQuery("ada", backend: backend).retry(limit: 1))
        let events = StateLog<String>()
        let handler = QueryEventHandler<QueryState<String, any Error>>(
            onStateChanged: { state, _ in events.append("state \(state.status)") },
            onRunStarted: { _ in events.append("started") },
            onResultReceived: { result, _ in events.append("result \((try? result.get()) ?? "error")") },
            onRunEnded: { _ in events.append("ended") })

        try await store.fetch(handler: handler)
        try await store.fetch()  // not heard: the handler belonged to the first fetch

        // The failed first attempt shows as two states: its retry scheduled, then started.
        #expect(
            events.all == [
                "state loading", "started", "state loading", "state loading", "result ada #2", "ended",
                "state success",
            ])
        #expect(store.subscriberCount == 0)
    }

    @Test func aMutationsHandlerHearsThatRunWithItsArguments() async throws {
        let store = makeClient().store(for: RecordName(backend: Backend()))
        let events = StateLog<String>()
        try await store.mutate(with: "bob")

        try await store.mutate(
            with: "ada",
            handler: MutationEventHandler(
                onMutatingStarted: { name, _ in events.append("started \(name)") },
                onMutatingEnded: { name, _ in events.append("ended \(name)") }))

        #expect(events.all == ["started ada", "ended ada"])
    }

    @Test func aControllerDrivesItsStoreFromOutside() async throws {
        let channel = PushChannel()
        let backend = Backend()
        let client = makeClient()
        let store = client.store(
            for: NameQuery("ada", backend: backend).controlled(by: PushController(channel: channel)))
        #expect(channel.isConnected)

        channel.push("pushed 1")
        #expect(store.currentValue == "pushed 1")
        #expect(store.status == .success)

        channel.fail(BackendError(call: 7))
        #expect(store.error as? BackendError == BackendError(call: 7))

        let refetch = try #require(channel.refetch())
        #expect(try await refetch.runIfNeeded() == "ada #1")
        #expect(refetch.runReason == .controlled)

        channel.reset()
        #expect(store.currentValue == nil)
        #expect(store.status == .idle)
    }

    @Test func aControllerStopsWhenItsStoreIsReleased() async throws {
        let channel = PushChannel()
        var store: OperationStore<QueryState<String, any Error>>? = makeClient(evictionDelay: nil)
            .store(for: NameQuery("ada", backend: Backend()).controlled(by: PushController(channel: channel)))
        #expect(channel.isConnected)
        #expect(store != nil)

        store = nil

        #expect(!channel.isConnected)
        channel.push("ignored")
        #expect(channel.refetch() == nil)
    }

    @Test func aControllerCannotRefetchWhileAutomaticFetchingIsOff() {
        let channel = PushChannel()
        let store = makeClient(automaticFetching: false)
            .store(for: NameQuery("ada", backend: Backend()).controlled(by: PushController(channel: channel)))
        #expect(channel.refetch() == nil)
        #expect(store.activeTasks.isEmpty)
    }
}

/// A push channel a test drives by hand; it holds one controls at a time.
final class PushChannel: Sendable {
    private let controls = Lock<OperationControls<QueryState<String, any Error>>?>(nil)

    var isConnected: Bool { controls.withLock { $0 != nil } }
    func connect(_ controls: OperationControls<QueryState<String, any Error>>) {
        self.controls.withLock { $0 = controls }
    }
    func disconnect() { controls.withLock { $0 = nil } }
    func push(_ value: String) { controls.withLock { $0 }?.yield(value) }
    func fail(_ error: any Error) { controls.withLock { $0 }?.yield(throwing: error) }
    func refetch() -> OperationTask<String>? { controls.withLock { $0 }?.yieldRefetch() }
    func reset() { controls.withLock { $0 }?.yieldResetState() }
}

/// Hands a store's controls to a push channel while the store lives.
struct PushController: OperationController {
    let channel: PushChannel

    func control(with controls: OperationControls<QueryState<String, any Error>>) -> OperationSubscription {
        channel.connect(controls)
        return OperationSubscription { channel.disconnect() }
    }
}
