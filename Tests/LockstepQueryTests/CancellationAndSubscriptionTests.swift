import Foundation
@testable import LockstepQuery
import LockstepTesting
import Testing

@Suite("Cancellation")
struct CancellationTests {
    @Test func cancellingTheOnlyCallerCancelsTheRunAndKeepsTheValue() async throws {
        let backend = Backend(gated: true)
        backend.gate!.open()
        let store = makeClient().store(for: NameQuery("ada", backend: backend))
        try await store.fetch()
        backend.gate!.close()

        let caller = Task { try await store.fetch() }
        await backend.gate!.arrival(count: 2)
        let run = try #require(store.activeTasks.first)
        #expect(store.status == .loading)

        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        await #expect(throws: CancellationError.self) { try await run.runIfNeeded() }

        #expect(run.isCancelled)
        #expect(store.status == .cancelled)
        #expect(store.currentValue == "ada #1")
        #expect(store.activeTasks.isEmpty)
        #expect(store.error == nil)
    }

    @Test func aCancelledCallerLeavesARunOthersWaitFor() async throws {
        let backend = Backend(gated: true)
        let store = makeClient(automaticFetching: false).store(for: NameQuery("ada", backend: backend))
        try await withTrackedWork { work in
            let leaving = await startingRun(of: store) { try await store.fetch() }
            await backend.gate!.arrival()
            let run = try #require(store.activeTasks.first)
            let staying = work.start("the staying fetch") { try await store.fetch() }
            await work.waitUntilParked()   // the staying fetch waits for the run

            leaving.cancel()
            await #expect(throws: CancellationError.self) { try await leaving.value }
            #expect(!run.isCancelled)

            backend.gate!.open()
            #expect(try await staying.value() == "ada #1")
            #expect(backend.calls == 1)
            #expect(store.status == .success)
        }
    }

    @Test func cancellingATaskStopsARunNobodyAskedFor() async throws {
        let backend = Backend(gated: true)
        let store = makeClient().store(for: NameQuery("ada", backend: backend))
        let subscription = store.subscribe(with: QueryEventHandler())
        let run = try #require(store.activeTasks.first)
        #expect(run.runReason == .subscribed)
        await backend.gate!.arrival()

        run.cancel()

        await #expect(throws: CancellationError.self) { try await run.runIfNeeded() }
        #expect(store.status == .cancelled)
        #expect(store.activeTasks.isEmpty)
        subscription.cancel()
    }

    @Test func cancelAllActiveTasksStopsEveryMutationRun() async throws {
        let backend = Backend(gated: true)
        let store = makeClient().store(for: RecordName(backend: backend))
        let first = Task { try await store.mutate(with: "a") }
        let second = Task { try await store.mutate(with: "b") }
        await backend.gate!.arrival(count: 2)
        #expect(store.activeTasks.count == 2)

        store.cancelAllActiveTasks()

        await #expect(throws: CancellationError.self) { try await first.value }
        await #expect(throws: CancellationError.self) { try await second.value }
        #expect(store.state.history.map(\.status) == [.cancelled, .cancelled])
        #expect(!store.isLoading)
    }
}

@Suite("Subscriptions")
struct SubscriptionTests {
    @Test func aSubscriberHearsTheCurrentStateThenEveryChangeInOrder() async throws {
        let store = makeClient(automaticFetching: false).store(for: NameQuery("ada", backend: Backend()))
        let log = StateLog<QueryState<String, any Error>>()
        var subscriptions = Set<OperationSubscription>()
        store.subscribe(with: QueryEventHandler { state, _ in log.append(state) })
            .store(in: &subscriptions)
        #expect(log.all.map(\.status) == [.idle])

        try await store.fetch()

        #expect(log.all.map(\.status) == [.idle, .loading, .success])
        #expect(log.all.map(\.currentValue) == [nil, nil, "ada #1"])

        subscriptions.removeAll()
        try await store.fetch()
        #expect(log.all.count == 3)
    }

    @Test func aStaleSubscribedStoreStartsAFetchBeforeSubscribeReturns() async throws {
        let backend = Backend(gated: true)
        let client = makeClient()
        let store = client.store(for: NameQuery("ada", backend: backend))

        let subscription = store.subscribe(with: QueryEventHandler())

        let run = try #require(store.activeTasks.first)
        #expect(store.status == .loading)
        backend.gate!.open()
        #expect(try await run.runIfNeeded() == "ada #1")

        // Stale at once by default, but only the first subscriber fetches: a second one doesn't.
        let second = store.subscribe(with: QueryEventHandler())
        #expect(store.activeTasks.isEmpty)
        #expect(backend.calls == 1)
        subscription.cancel()
        second.cancel()
        // Once nobody is subscribed, the next first subscriber fetches again.
        let third = store.subscribe(with: QueryEventHandler())
        await client.waitUntilIdle()
        #expect(backend.calls == 2)
        #expect(store.currentValue == "ada #2")
        third.cancel()
    }

    @Test func aFreshValueIsNotRefetchedByANewSubscriber() async throws {
        let backend = Backend()
        let store = makeClient().store(for: NameQuery("ada", backend: backend, staleAfter: .seconds(60)))
        try await store.fetch()

        let subscription = store.subscribe(with: QueryEventHandler())

        #expect(store.activeTasks.isEmpty)
        #expect(!store.isStale)
        #expect(backend.calls == 1)
        subscription.cancel()
    }

    @Test func noFetchStartsWhenAutomaticFetchingIsOff() {
        let backend = Backend()
        let store = makeClient(automaticFetching: false).store(for: NameQuery("ada", backend: backend))

        let subscription = store.subscribe(with: QueryEventHandler())

        #expect(store.activeTasks.isEmpty)
        #expect(store.isStale)
        #expect(backend.calls == 0)
        subscription.cancel()
    }

    @Test func runEventsReachTheirHandlers() async throws {
        let backend = Backend()
        backend.failNext(1)
        let store = makeClient(automaticFetching: false, retryLimit: 1)
            .store(for: NameQuery("ada", backend: backend))
        let events = StateLog<String>()
        let subscription = store.subscribe(
            with: QueryEventHandler(
                onRunStarted: { context in events.append("started \(context.runReason)") },
                onResultReceived: { result, _ in events.append("result \((try? result.get()) ?? "error")") },
                onRunEnded: { _ in events.append("ended") }
            ))

        try await store.fetch()

        #expect(events.all == ["started requested", "result ada #2", "ended"])
        subscription.cancel()
    }

    @Test func theStatesSequenceDeliversEveryState() async throws {
        let store = makeClient(automaticFetching: false).store(for: NameQuery("ada", backend: Backend()))
        var states = store.states.makeAsyncIterator()
        #expect(await states.next()?.status == .idle)

        try await store.fetch()

        #expect(await states.next()?.status == .loading)
        let success = await states.next()
        #expect(success?.status == .success)
        #expect(success?.currentValue == "ada #1")
    }

    @Test func yieldedValuesReachTheStateBeforeTheRunEnds() async throws {
        let gate = Gate()
        let store = makeClient(automaticFetching: false).store(for: YieldingQuery(gate: gate))
        let fetch = Task { try await store.fetch() }
        await gate.arrival()

        #expect(store.currentValue == "cached")
        #expect(store.status == .loading)

        gate.open()
        #expect(try await fetch.value == "fresh")
        #expect(store.currentValue == "fresh")
        #expect(store.state.valueUpdateCount == 2)
    }
}

/// Yields a cached value, then waits at a gate before returning the fresh one.
struct YieldingQuery: QueryRequest {
    let gate: Gate
    static func == (lhs: Self, rhs: Self) -> Bool { true }
    func hash(into hasher: inout Hasher) {}

    func fetch(
        isolation: isolated (any Actor)?,
        in context: OperationContext,
        with continuation: OperationContinuation<String, any Error>
    ) async throws -> String {
        continuation.yield("cached")
        await gate.pass()
        return "fresh"
    }
}

/// A mutation that records names at a ``Backend``.
struct RecordName: MutationRequest {
    let backend: Backend
    static func == (lhs: Self, rhs: Self) -> Bool { true }
    func hash(into hasher: inout Hasher) {}

    func mutate(
        isolation: isolated (any Actor)?,
        with arguments: String,
        in context: OperationContext,
        with continuation: OperationContinuation<String, any Error>
    ) async throws -> String {
        try await backend.call(arguments, context: context)
    }
}

@Suite("Active tasks")
struct ActiveTaskTests {
    @Test func anAutomaticRunThatEndedBeforeAnyoneLookedIsKeptForTheFirstToAsk() async throws {
        let client = makeClient()
        let store = client.store(for: NameQuery("ada", backend: Backend()))
        let subscription = store.subscribe(with: QueryEventHandler())
        await client.waitUntilIdle()   // the run has ended; nobody joined it

        let run = try #require(store.activeTasks.first)
        #expect(run.isFinished)
        #expect(run.runReason == .subscribed)
        #expect(try await run.runIfNeeded() == "ada #1")

        #expect(store.activeTasks.isEmpty)   // claimed
        subscription.cancel()
    }

    @Test func aNewRunReplacesTheUnclaimedOne() async throws {
        let client = makeClient()
        let store = client.store(for: NameQuery("ada", backend: Backend()))
        let subscription = store.subscribe(with: QueryEventHandler())
        await client.waitUntilIdle()

        try await store.fetch()

        #expect(store.activeTasks.isEmpty)
        subscription.cancel()
    }

    @Test func requestedRunsAreNotKeptOnceEnded() async throws {
        let store = makeClient().store(for: NameQuery("ada", backend: Backend()))
        try await store.fetch()
        #expect(store.activeTasks.isEmpty)
    }
}
