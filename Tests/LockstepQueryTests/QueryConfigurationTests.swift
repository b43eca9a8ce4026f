import Clocks
import Foundation
@testable import LockstepQuery
import LockstepTesting
import Testing

@Suite("Per-query configuration")
struct QueryConfigurationTests {
    @Test func aQueryRetriesUnderTheTestDefaultsWhenItSetsItsOwnLimit() async throws {
        // The client a test runner gets by default: no retries, no backoff, no delays.
        let client = OperationClient(storeCreator: .defaultTesting, now: { fixedDate })
        let backend = Backend(failures: 2)
        let store = client.store(for: NameQuery("ada", backend: backend).retry(limit: 2))

        #expect(try await store.fetch() == "ada #3")
        #expect(backend.retryIndices == [0, 1, 2])
        #expect(store.context.retryLimit == 2)
    }

    @Test func theClientsDefaultsApplyToQueriesWithoutModifiers() async {
        let client = OperationClient(storeCreator: .defaultTesting, now: { fixedDate })
        let backend = Backend(failures: 2)
        let store = client.store(for: NameQuery("ada", backend: backend))

        await #expect(throws: BackendError(call: 1)) { try await store.fetch() }
        #expect(backend.calls == 1)
    }

    @Test func aQuerysBackoffAndDelayerReplaceTheClients() async throws {
        let delays = DelayRecorder()
        let backend = Backend(failures: 3)
        let client = makeClient(retryLimit: 0, backoff: .noBackoff, delayer: .noDelay)
        let query = NameQuery("ada", backend: backend)
            .retry(limit: 3)
            .backoff(.fibonacci(.seconds(2)))
            .delayer(delays.delayer)

        #expect(try await client.store(for: query).fetch() == "ada #4")
        #expect(delays.recorded == [.seconds(2), .seconds(2), .seconds(4)])
    }

    @Test func aQueryWithoutADelayerWaitsOnTheClientsClock() async throws {
        let clock = ManualClock()
        let backend = Backend(failures: 1)
        let client = makeClient(delayer: nil, clock: clock)
        let store = client.store(
            for: NameQuery("ada", backend: backend).retry(limit: 1).backoff(.constant(.seconds(7))))

        let fetch = Task { try await store.fetch() }
        await clock.sleepers(count: 1)
        #expect(backend.calls == 1)
        await clock.advance(by: .seconds(7))
        #expect(try await fetch.value == "ada #2")
    }

    @Test func aMutationCarriesItsOwnRetryLimit() async throws {
        let backend = Backend(failures: 1)
        let store = makeClient().store(for: RecordName(backend: backend).retry(limit: 1))

        #expect(try await store.mutate(with: "ada") == "ada #2")
        #expect(store.state.history.count == 1)
    }

    @Test func aNegativeRetryLimitIsReportedAtTheCallAndTakenAsZero() async throws {
        let backend = Backend(failures: 1)
        var query: ModifiedOperation<NameQuery>?
        withKnownIssue {
            query = NameQuery("ada", backend: backend).retry(limit: -2)
        } matching: { issue in
            issue.description.contains("retry(limit:)")
        }
        let store = makeClient(retryLimit: 3).store(for: query!)

        await #expect(throws: BackendError(call: 1)) { try await store.fetch() }
        #expect(store.context.retryLimit == 0)
        // The cache keeps working.
        #expect(try await store.fetch() == "ada #2")
    }

    @Test func aQueryCanTurnAutomaticFetchingOff() {
        let backend = Backend()
        let store = makeClient().store(
            for: NameQuery("ada", backend: backend).disableAutomaticFetching())

        let subscription = store.subscribe(with: QueryEventHandler())

        #expect(store.activeTasks.isEmpty)
        #expect(backend.calls == 0)
        subscription.cancel()
    }

    @Test func aQueryCanTurnAutomaticFetchingOnWhenTheClientHasItOff() async {
        let backend = Backend()
        let client = makeClient(automaticFetching: false)
        let store = client.store(
            for: NameQuery("ada", backend: backend).enableAutomaticFetching(onlyWhen: .always(true)))

        let subscription = store.subscribe(with: QueryEventHandler())
        await client.waitUntilIdle()

        #expect(backend.calls == 1)
        subscription.cancel()
    }

    @Test func aQuerysConditionFetchesWhenItBecomesSatisfiedWhileSubscribed() async {
        let signedIn = ManualCondition(false)
        let backend = Backend()
        let client = makeClient()
        let store = client.store(
            for: NameQuery("ada", backend: backend).enableAutomaticFetching(onlyWhen: signedIn.condition))
        let other = client.store(for: NameQuery("bob", backend: backend))
        _ = try? await other.fetch()

        let subscription = store.subscribe(with: QueryEventHandler())
        #expect(store.activeTasks.isEmpty)

        signedIn.send(true)
        await client.waitUntilIdle()

        #expect(store.currentValue == "ada #2")
        #expect(backend.calls == 2)
        subscription.cancel()

        // Without subscribers, the condition no longer starts anything.
        signedIn.send(false)
        signedIn.send(true)
        await client.waitUntilIdle()
        #expect(backend.calls == 2)
    }

    @Test func aRefetchTriggerRefetchesASubscribedStaleStore() async throws {
        let trigger = ManualCondition(false)
        let backend = Backend()
        let client = makeClient()
        let store = client.store(
            for: NameQuery("ada", backend: backend).refetchOnChange(of: trigger.condition))
        let reasons = StateLog<OperationContext.RunReason>()
        let subscription = store.subscribe(
            with: QueryEventHandler(onRunStarted: { reasons.append($0.runReason) }))
        await client.waitUntilIdle()

        trigger.send(true)
        await client.waitUntilIdle()

        #expect(reasons.all == [.subscribed, .triggered])
        #expect(store.currentValue == "ada #2")
        subscription.cancel()
    }

    @Test func aQueryCanOptOutOfReconnectAndFocusRefetching() async throws {
        let network = ManualNetworkObserver(status: .disconnected)
        let focus = ManualCondition(false)
        let backend = Backend()
        let client = makeClient(networkObserver: network, focusCondition: focus.condition)
        let optedOut = client.store(
            for: NameQuery("ada", backend: backend).disableRefetchOnReconnect().disableRefetchOnFocus())
        let usual = client.store(for: NameQuery("bob", backend: backend))
        // One after the other, so that ada's first fetch is the backend's first call.
        var subscriptions = [optedOut.subscribe(with: QueryEventHandler())]
        await client.waitUntilIdle()
        subscriptions.append(usual.subscribe(with: QueryEventHandler()))
        await client.waitUntilIdle()
        #expect(backend.calls == 2)

        network.send(.connected)
        await client.waitUntilIdle()
        #expect(usual.currentValue == "bob #3")
        focus.send(true)
        await client.waitUntilIdle()

        #expect(optedOut.currentValue == "ada #1")
        #expect(usual.currentValue == "bob #4")
        for subscription in subscriptions { subscription.cancel() }
    }

    @Test func staleAfterKeepsTheValueFreshOnTheClientsClock() async throws {
        let clock = TestClock()
        let store = makeClient(clock: clock)
            .store(for: NameQuery("ada", backend: Backend()).stale(after: .seconds(30)))
        try await store.fetch()

        await clock.advance(by: .seconds(29))
        #expect(!store.isStale)
        await clock.advance(by: .seconds(1))
        #expect(store.isStale)
    }

    @Test func aNonPositiveStalenessIsReportedAndTheQueryIsStaleAtOnce() async throws {
        let clock = TestClock()
        var query: ModifiedOperation<NameQuery>?
        withKnownIssue {
            query = NameQuery("ada", backend: Backend()).stale(after: .zero)
        } matching: { issue in
            issue.description.contains("stale(after:)")
        }
        let store = makeClient(clock: clock).store(for: query!)

        try await store.fetch()
        #expect(store.isStale)
    }

    @Test func staleWhenDecidesFromTheState() async throws {
        let store = makeClient().store(
            for: NameQuery("ada", backend: Backend(), staleAfter: .seconds(60))
                .staleWhen { $0.currentValue == "ada #1" })
        try await store.fetch()
        #expect(store.isStale)
        try await store.fetch()
        #expect(!store.isStale)
    }

    @Test func aStoresContextOverridesItsQueryForThatStoreAlone() async throws {
        let backend = Backend(failures: 1)
        let client = makeClient()
        let store = client.store(for: NameQuery("ada", backend: backend).retry(limit: 3))

        store.context.retryLimit = 0
        await #expect(throws: BackendError(call: 1)) { try await store.fetch() }

        store.context.retryLimit = 1
        backend.failNext(1)
        #expect(try await store.fetch() == "ada #3")

        store.context.automaticFetchingCondition = .always(false)
        let subscription = store.subscribe(with: QueryEventHandler())
        #expect(store.activeTasks.isEmpty)
        subscription.cancel()

        store.staleness = .never
        #expect(!store.isStale)
        #expect(store.context.path == ["names", "ada"])
    }

    @Test func settingANegativeRetryLimitOnAContextIsReported() {
        var context = OperationContext()
        withKnownIssue {
            context.retryLimit = -1
        } matching: { issue in
            issue.description.contains("retryLimit")
        }
        #expect(context.retryLimit == 0)
    }

    @Test func aModifiedQuerySharesItsBasesKeyAndEquality() {
        let backend = Backend()
        let modified = NameQuery("ada", backend: backend).retry(limit: 2)
        #expect(modified.path == ["names", "ada"])
        #expect(modified == NameQuery("ada", backend: backend).retry(limit: 5))
        #expect(modified != NameQuery("bob", backend: backend).retry(limit: 2))
    }
}
