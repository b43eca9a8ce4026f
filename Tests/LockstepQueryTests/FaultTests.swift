@testable import LockstepFixtures
import Foundation
import LockstepQuery
import LockstepTesting
import Testing

/// Counts the failures a subscriber hears.
final class FailureCount: Sendable {
    private let count = Lock(0)
    var value: Int { count.withLock { $0 } }
    var handler: QueryEventHandler<QueryState<String, any Error>> {
        QueryEventHandler(onResultReceived: { result, _ in
            if case .failure = result { self.count.withLock { $0 += 1 } }
        })
    }
}

/// Queries that throw, are cancelled mid-flight, and whose client (or the store whose middleware
/// awaits them) is released mid-flight: the cache keeps its last value, reports each error once,
/// every query body ends and the client ends idle.
@Suite("Faults: queries")
struct QueryFaultTests {
    @Test("A query that throws fails its fetch once; the store keeps its last value, reports the error once, and fetches again")
    func throwingQueryIsReportedOnce() async throws {
        let live = LiveTasks()
        let backend = Backend()
        let client = makeClient(automaticFetching: false)
        let store = client.store(for: NameQuery("ada", backend: backend, path: ["live", "ada"], live: live))
        let failures = FailureCount()
        let subscription = store.subscribe(with: failures.handler)

        #expect(try await store.fetch() == "ada #1")
        backend.failNext(1)
        await #expect(throws: BackendError(call: 2)) { try await store.fetch() }

        #expect(store.currentValue == "ada #1")
        #expect(store.status == .failure)
        #expect(store.error as? BackendError == BackendError(call: 2))
        #expect(store.state.errorUpdateCount == 1)
        #expect(failures.value == 1)
        await client.waitUntilIdle()
        #expect(client.activeTaskCount == 0)
        #expect(live.count == 0)

        #expect(try await store.fetch() == "ada #3")
        #expect(store.status == .success)
        #expect(store.state.errorUpdateCount == 1)
        #expect(failures.value == 1)
        #expect(live.started == 3)
        subscription.cancel()
    }

    @Test("A query that throws on every retry reports only its last error, once, and every attempt's body ends")
    func retriedQueryReportsItsLastErrorOnce() async throws {
        let live = LiveTasks()
        let backend = Backend(failures: 3)
        let client = makeClient(automaticFetching: false, retryLimit: 2)
        let store = client.store(for: NameQuery("ada", backend: backend, path: ["live", "ada"], live: live))
        let failures = FailureCount()
        let subscription = store.subscribe(with: failures.handler)

        await #expect(throws: BackendError(call: 3)) { try await store.fetch() }

        #expect(backend.retryIndices == [0, 1, 2])
        #expect(failures.value == 1)
        #expect(store.state.errorUpdateCount == 1)
        #expect(store.currentValue == nil)
        await client.waitUntilIdle()
        #expect(client.activeTaskCount == 0)
        #expect(live.count == 0)
        #expect(live.started == 3)

        #expect(try await store.fetch() == "ada #4")
        subscription.cancel()
    }

    @Test("A fetch cancelled mid-flight ends its query body; the store keeps its value, hears no error, ends cancelled, and fetches again")
    func cancelledFetchEndsItsBody() async throws {
        let live = LiveTasks()
        let backend = Backend(gated: true)
        let gate = try #require(backend.gate)
        let client = makeClient(automaticFetching: false)
        let store = client.store(for: NameQuery("ada", backend: backend, path: ["live", "ada"], live: live))
        let failures = FailureCount()
        let subscription = store.subscribe(with: failures.handler)
        gate.open()
        #expect(try await store.fetch() == "ada #1")
        gate.close()

        let caller = Task { try await store.fetch() }
        await gate.arrival(count: 2)
        #expect(client.activeTaskCount == 1)
        #expect(live.count == 1)

        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        await live.waitUntilZero()
        await client.waitUntilIdle()

        #expect(client.activeTaskCount == 0)
        #expect(store.activeTasks.isEmpty)
        #expect(store.currentValue == "ada #1")
        #expect(store.status == .cancelled)
        #expect(store.error == nil)
        #expect(failures.value == 0)

        gate.open()
        #expect(try await store.fetch() == "ada #3")
        #expect(live.started == 3)
        subscription.cancel()
    }

    @Test("A client released with a subscribed run held at a gate is freed at once; the run is cancelled and its query body ends")
    func releasedClientCancelsItsRuns() async throws {
        let live = LiveTasks()
        let backend = Backend(gated: true)
        var client: OperationClient? = makeClient()
        weak let weakClient = client
        weak let weakStore = client!.store(for: NameQuery("ada", backend: backend, path: ["live", "ada"], live: live))
        let subscription = try #require(weakStore).subscribe(with: QueryEventHandler())
        let run = try #require(weakStore?.activeTasks.first)
        await backend.gate!.arrival()
        #expect(client?.activeTaskCount == 1)
        #expect(live.count == 1)

        client = nil

        // Nothing in flight holds the client, and only the client held the store.
        #expect(weakClient == nil)
        #expect(weakStore == nil)
        await #expect(throws: CancellationError.self) { try await run.runIfNeeded() }
        #expect(run.isFinished)
        await live.waitUntilZero()
        #expect(live.started == 1)
        #expect(backend.gate!.waitingCount == 0)
        subscription.cancel()
    }

    @Test("A client released while a caller awaits a fetch is freed at once; the caller still gets its value and the body ends")
    func releasedClientLetsHeldStoresFinish() async throws {
        let live = LiveTasks()
        let backend = Backend(gated: true)
        var client: OperationClient? = makeClient(automaticFetching: false)
        weak let weakClient = client
        let store = client!.store(for: NameQuery("ada", backend: backend, path: ["live", "ada"], live: live))
        let caller = Task { try await store.fetch() }
        await backend.gate!.arrival()

        client = nil

        #expect(weakClient == nil)
        backend.gate!.open()
        #expect(try await caller.value == "ada #1")
        await live.waitUntilZero()
        #expect(store.currentValue == "ada #1")
        #expect(store.activeTasks.isEmpty)
    }
}

/// A `Store` whose middleware fetches through a client: the query's error becomes one action,
/// and releasing the store mid-fetch frees it and cancels the run.
@MainActor
@Suite("Faults: queries under a store")
struct QueryMiddlewareFaultTests {
    enum Action: Equatable, Sendable {
        case load(String)
        case loaded(String)
        case failed
    }

    struct State: Equatable, Sendable {
        var loads = 0
        var names: [String] = []
        var failures = 0
    }

    static func reducer(state: State, action: Action) -> State {
        var state = state
        switch action {
        case .load: state.loads += 1
        case .loaded(let name): state.names.append(name)
        case .failed: state.failures += 1
        }
        return state
    }

    static func middleware(
        client: OperationClient, backend: Backend, live: LiveTasks
    ) -> Middleware<State, Action, Void> {
        client.middleware(
            fetching: { (action: Action) -> NameQuery? in
                guard case .load(let name) = action else { return nil }
                return NameQuery(name, backend: backend, path: ["live", name], live: live)
            },
            then: { result in (try? result.get()).map(Action.loaded) ?? .failed })
    }

    @Test("A query that throws in a store's middleware becomes exactly one failure action; the store keeps working")
    func throwingQueryBecomesOneAction() async {
        let live = LiveTasks()
        let backend = Backend()
        let client = makeClient(automaticFetching: false)
        let store = Store(
            state: State(), reducer: Self.reducer, services: (),
            middlewares: [Self.middleware(client: client, backend: backend, live: live)])

        await store.dispatch(.load("ada"))
        backend.failNext(1)
        await store.dispatch(.load("ada"))
        await store.dispatch(.load("grace"))

        #expect(store.state == State(loads: 3, names: ["ada #1", "grace #3"], failures: 1))
        #expect(live.count == 0)
        #expect(live.started == 3)
        await client.waitUntilIdle()
        #expect(client.activeTaskCount == 0)
    }

    @Test("A store released while its middleware awaits a query is freed at once; the run is cancelled, its body ends and the client ends idle")
    func releasedStoreCancelsTheQueryItAwaits() async throws {
        let live = LiveTasks()
        let backend = Backend(gated: true)
        let client = makeClient(automaticFetching: false)
        var store: Store<State, Action>? = Store(
            state: State(), reducer: Self.reducer, services: (),
            middlewares: [Self.middleware(client: client, backend: backend, live: live)])
        weak let weakStore = store

        let load = store!.send(.load("ada"))
        await backend.gate!.arrival()
        #expect(client.activeTaskCount == 1)

        store = nil

        #expect(weakStore == nil)
        // The store's release cancelled the send, the fetch's only caller, and so the run.
        await load.value
        await live.waitUntilZero()
        await client.waitUntilIdle()
        #expect(client.activeTaskCount == 0)
        let queryStore = client.store(for: NameQuery("ada", backend: backend, path: ["live", "ada"], live: live))
        #expect(queryStore.activeTasks.isEmpty)
        #expect(queryStore.status == .cancelled)
        #expect(queryStore.error == nil)
        #expect(live.started == 1)
    }
}
