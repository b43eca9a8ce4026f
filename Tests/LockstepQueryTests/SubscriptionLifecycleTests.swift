import Foundation
@testable import LockstepFixtures
@testable import LockstepQuery
import LockstepTesting
import Testing

@Suite("Subscription lifecycle")
struct SubscriptionLifecycleTests {
    @Test func onlyTheFirstSubscriberOfAnIdleStaleStoreStartsAFetch() async throws {
        let backend = Backend(gated: true)
        let client = makeClient()
        let store = client.store(for: NameQuery("ada", backend: backend))

        let subscriptions = (0..<3).map { _ in store.subscribe(with: QueryEventHandler()) }
        #expect(store.activeTasks.count == 1)
        backend.gate!.open()
        await client.waitUntilIdle()

        // Even a fetch that ended before the later subscribers arrived is not repeated for them.
        let fourth = store.subscribe(with: QueryEventHandler())
        #expect(store.activeTasks.allSatisfy { $0.isFinished })
        #expect(backend.calls == 1)
        for subscription in subscriptions + [fourth] { subscription.cancel() }
    }

    @Test func quickSubscribersOfAFastQueryShareOneFetch() async throws {
        let backend = Backend()
        let client = makeClient()
        let store = client.store(for: NameQuery("ada", backend: backend))

        let subscriptions = (0..<3).map { _ in store.subscribe(with: QueryEventHandler()) }
        await client.waitUntilIdle()

        #expect(backend.calls == 1)
        for subscription in subscriptions { subscription.cancel() }
    }

    @Test func aLazyStoreIsNotFetchedBySubscribingUntilSomethingFetchesIt() async throws {
        let backend = Backend()
        let client = makeClient()
        let store = client.store(for: NameQuery("ada", backend: backend).lazy())
        #expect(!store.isStale)

        let first = store.subscribe(with: QueryEventHandler())
        #expect(store.activeTasks.isEmpty)
        #expect(backend.calls == 0)
        first.cancel()

        try await store.fetch()
        #expect(store.isStale)  // stale at once, like any query with the default staleness
        let second = store.subscribe(with: QueryEventHandler())
        await client.waitUntilIdle()
        #expect(backend.calls == 2)
        second.cancel()

        // A reset makes it never-fetched again.
        store.resetState()
        #expect(!store.isStale)
    }

    @Test func theLastSubscriberLeavingCancelsTheRunSubscribingStarted() async throws {
        let backend = Backend(gated: true)
        let live = LiveTasks()
        let client = makeClient()
        let store = client.store(for: NameQuery("ada", backend: backend, live: live))
        let first = store.subscribe(with: QueryEventHandler())
        let second = store.subscribe(with: QueryEventHandler())
        let run = try #require(store.activeTasks.first)
        await backend.gate!.arrival()

        first.cancel()
        #expect(!run.isCancelled)
        second.cancel()

        #expect(run.isCancelled)
        await #expect(throws: CancellationError.self) { try await run.runIfNeeded() }
        await live.waitUntilZero()
        await client.waitUntilIdle()
        #expect(store.status == .cancelled)
        #expect(store.currentValue == nil)
    }

    @Test func aRunSomeoneWaitsForOutlivesTheSubscribers() async throws {
        let backend = Backend(gated: true)
        let client = makeClient()
        let store = client.store(for: NameQuery("ada", backend: backend))
        try await withTrackedWork { work in
            // Started by the test's subscription, the run is tracked work of its own.
            let subscription = store.subscribe(with: QueryEventHandler())
            let run = try #require(store.activeTasks.first)
            let fetch = work.start("the fetch") { try await store.fetch() }
            await work.waitUntilParked()   // the fetch waits for the run

            subscription.cancel()
            #expect(!run.isCancelled)

            backend.gate!.open()
            #expect(try await fetch.value() == "ada #1")
            #expect(backend.calls == 1)
        }
    }

    @Test func theLoadingStateIsReportedBeforeTheRunStarts() async throws {
        let store = makeClient(automaticFetching: false).store(for: NameQuery("ada", backend: Backend()))
        let events = StateLog<String>()
        let subscription = store.subscribe(
            with: QueryEventHandler(
                onStateChanged: { state, _ in events.append("state \(state.status)") },
                onRunStarted: { _ in events.append("started") },
                onResultReceived: { _, _ in events.append("result") },
                onRunEnded: { _ in events.append("ended") }))

        try await store.fetch()

        #expect(
            events.all == [
                "state idle", "state loading", "started", "result", "ended", "state success",
            ])
        subscription.cancel()
    }
}
