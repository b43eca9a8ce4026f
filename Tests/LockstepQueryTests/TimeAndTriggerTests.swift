import Clocks
import Foundation
@testable import LockstepQuery
import LockstepTesting
import Testing

@Suite("Retries and time")
struct RetryTests {
    @Test func aFailingQueryRetriesUpToTheLimitWithTheBackoffItsDelayerIsAskedFor() async {
        let backend = Backend(failures: 10)
        let delays = DelayRecorder()
        let client = makeClient(
            retryLimit: 3, backoff: .exponential(.seconds(1)), delayer: delays.delayer)
        let store = client.store(for: NameQuery("ada", backend: backend))

        await #expect(throws: BackendError(call: 4)) { try await store.fetch() }

        #expect(backend.calls == 4)
        #expect(backend.retryIndices == [0, 1, 2, 3])
        #expect(delays.recorded == [.seconds(1), .seconds(2), .seconds(4)])
        #expect(store.state.errorUpdateCount == 1)
    }

    @Test func aRetryThatSucceedsEndsTheRun() async throws {
        let backend = Backend(failures: 1)
        let delays = DelayRecorder()
        let store = makeClient(retryLimit: 3, backoff: .constant(.seconds(5)), delayer: delays.delayer)
            .store(for: NameQuery("ada", backend: backend))

        #expect(try await store.fetch() == "ada #2")
        #expect(delays.recorded == [.seconds(5)])
        #expect(store.error == nil)
    }

    @Test func withoutADelayerRetriesWaitOnTheClientsClock() async throws {
        let clock = ManualClock()
        let backend = Backend(failures: 2)
        let client = makeClient(
            retryLimit: 2, backoff: .constant(.seconds(10)), delayer: nil, clock: clock)
        let store = client.store(for: NameQuery("ada", backend: backend))

        let fetch = Task { try await store.fetch() }
        await clock.sleepers(count: 1)
        #expect(backend.calls == 1)
        await clock.advance(by: .seconds(10))
        await clock.sleepers(count: 1)
        #expect(backend.calls == 2)
        await clock.advance(by: .seconds(10))
        #expect(try await fetch.value == "ada #3")
        #expect(clock.now.offset == .seconds(20))
    }

    @Test func aValueStaysFreshForItsDurationOnTheClientsClock() async throws {
        let clock = TestClock()
        let store = makeClient(clock: clock)
            .store(for: NameQuery("ada", backend: Backend(), staleAfter: .seconds(60)))
        #expect(store.isStale)
        try await store.fetch()
        #expect(!store.isStale)

        await clock.advance(by: .seconds(59))
        #expect(!store.isStale)
        await clock.advance(by: .seconds(1))
        #expect(store.isStale)
    }

    @Test func stalenessCanBeAPredicateOnTheState() async throws {
        let store = makeClient().store(for: EmptyIsStaleQuery())
        try await store.fetch()
        #expect(store.isStale)   // fetched an empty list
        store.currentValue = [1]
        #expect(!store.isStale)
    }
}

@Suite("Eviction")
struct EvictionTests {
    @Test func anUnusedStoreIsForgottenAfterTheDelay() async throws {
        let clock = TestClock()
        let client = makeClient(clock: clock, evictionDelay: .seconds(300))
        let backend = Backend()
        let store = client.store(for: NameQuery("ada", backend: backend))
        try await store.fetch()

        await clock.advance(by: .seconds(299))
        #expect(client.stores().count == 1)
        await clock.advance(by: .seconds(1))
        #expect(client.stores().isEmpty)
        #expect(client.store(for: NameQuery("ada", backend: backend)) !== store)
    }

    @Test func theDeadlineStartsWhenTheLastSubscriberLeaves() async throws {
        let clock = TestClock()
        let client = makeClient(automaticFetching: false, clock: clock, evictionDelay: .seconds(300))
        let store = client.store(for: NameQuery("ada", backend: Backend()))
        let first = store.subscribe(with: QueryEventHandler())
        let second = store.subscribe(with: QueryEventHandler())

        await clock.advance(by: .seconds(1_000))
        #expect(client.stores().count == 1)
        first.cancel()
        await clock.advance(by: .seconds(1_000))
        #expect(client.stores().count == 1)

        second.cancel()
        await clock.advance(by: .seconds(299))
        #expect(client.stores().count == 1)
        await clock.advance(by: .seconds(1))
        #expect(client.stores().isEmpty)
    }

    @Test func aStoreWithARunInFlightIsKept() async throws {
        let clock = TestClock()
        let backend = Backend(gated: true)
        let client = makeClient(clock: clock, evictionDelay: .seconds(10))
        let fetch = Task { try await client.store(for: NameQuery("ada", backend: backend)).fetch() }
        await backend.gate!.arrival()

        await clock.advance(by: .seconds(60))
        #expect(client.stores().count == 1)

        backend.gate!.open()
        _ = try await fetch.value
        await clock.advance(by: .seconds(10))
        #expect(client.stores().isEmpty)
    }

    @Test func withoutADelayStoresAreKept() async throws {
        let clock = TestClock()
        let client = makeClient(clock: clock, evictionDelay: nil)
        _ = client.store(for: NameQuery("ada", backend: Backend()))
        await clock.advance(by: .seconds(100_000))
        #expect(client.stores().count == 1)
    }
}

@Suite("Refetch triggers")
struct RefetchTriggerTests {
    @Test func aReconnectRefetchesSubscribedStaleStores() async throws {
        let network = ManualNetworkObserver(status: .connected)
        let backend = Backend()
        let client = makeClient(networkObserver: network)
        let watched = client.store(for: NameQuery("ada", backend: backend))
        let unwatched = client.store(for: NameQuery("grace", backend: backend))
        let reasons = StateLog<OperationContext.RunReason>()
        let subscription = watched.subscribe(
            with: QueryEventHandler(onRunStarted: { reasons.append($0.runReason) }))
        await client.waitUntilIdle()
        try await unwatched.fetch()
        #expect(backend.calls == 2)

        network.send(.disconnected)
        #expect(client.activeTaskCount == 0)
        network.send(.connected)

        #expect(reasons.all == [.subscribed, .reconnected])
        await client.waitUntilIdle()
        #expect(backend.calls == 3)
        #expect(watched.currentValue == "ada #3")
        #expect(unwatched.currentValue == "grace #2")
        subscription.cancel()
    }

    @Test func aReconnectLeavesFreshStoresAlone() async throws {
        let network = ManualNetworkObserver(status: .disconnected)
        let backend = Backend()
        let client = makeClient(networkObserver: network)
        let store = client.store(for: NameQuery("ada", backend: backend, staleAfter: .seconds(60)))
        let subscription = store.subscribe(with: QueryEventHandler())
        await client.waitUntilIdle()

        network.send(.connected)

        #expect(client.activeTaskCount == 0)
        #expect(backend.calls == 1)
        subscription.cancel()
    }

    @Test func theAppBecomingActiveRefetchesSubscribedStaleStores() async throws {
        let focus = ManualCondition(true)
        let backend = Backend()
        let client = makeClient(focusCondition: focus.condition)
        let store = client.store(for: NameQuery("ada", backend: backend))
        let reasons = StateLog<OperationContext.RunReason>()
        let subscription = store.subscribe(
            with: QueryEventHandler(onRunStarted: { reasons.append($0.runReason) }))
        await client.waitUntilIdle()

        focus.send(false)
        #expect(client.activeTaskCount == 0)
        focus.send(true)
        #expect(reasons.all == [.subscribed, .focused])
        await client.waitUntilIdle()

        #expect(backend.calls == 2)
        subscription.cancel()
    }

    @Test func turningAutomaticFetchingOnFetchesWhatSubscribersWait() async throws {
        let enabled = ManualCondition(false)
        let backend = Backend()
        let client = OperationClient(
            storeCreator: .default(
                retryLimit: 0, backoff: .noBackoff, delayer: .noDelay,
                queryEnableAutomaticFetchingCondition: enabled.condition,
                networkObserver: nil, focusCondition: nil))
        let store = client.store(for: NameQuery("ada", backend: backend))
        let subscription = store.subscribe(with: QueryEventHandler())
        #expect(backend.calls == 0)

        enabled.send(true)
        await client.waitUntilIdle()

        #expect(backend.calls == 1)
        #expect(store.currentValue == "ada #1")
        subscription.cancel()
    }
}

/// Stale whenever its list is empty.
struct EmptyIsStaleQuery: QueryRequest {
    var staleness: Staleness<QueryState<[Int], any Error>> {
        .when { $0.currentValue?.isEmpty ?? true }
    }

    func fetch(
        isolation: isolated (any Actor)?,
        in context: OperationContext,
        with continuation: OperationContinuation<[Int], any Error>
    ) async throws -> [Int] {
        []
    }
}
