import Foundation
@testable import LockstepQuery
import LockstepTesting
import Testing

@Suite("Store integration")
@MainActor
struct StoreIntegrationTests {
    enum Action: Equatable, Sendable {
        case load(String)
        case loaded(String)
        case failed
    }

    struct State: Equatable {
        var names: [String] = []
        var failures = 0
    }

    static let reducer: Reducer<State, Action> = { state, action in
        var state = state
        switch action {
        case .load: break
        case .loaded(let name): state.names.append(name)
        case .failed: state.failures += 1
        }
        return state
    }

    /// Answers `.load(name)` with the name query's value, fetched through `client`.
    static func loadNames(through client: OperationClient, from backend: Backend) -> Middleware<State, Action, Void> {
        client.middleware(
            fetching: { (action: Action) -> NameQuery? in
                guard case .load(let name) = action else { return nil }
                return NameQuery(name, backend: backend)
            },
            then: { result in result.map(Action.loaded) ?? Action.failed })
    }

    @Test func aMiddlewareReadsThroughTheClient() async {
        let backend = Backend()
        let client = makeClient(automaticFetching: false)
        let store = Store(
            state: State(), reducer: Self.reducer, services: (),
            middlewares: [Self.loadNames(through: client, from: backend)])

        await store.dispatch(.load("ada"))
        await store.dispatch(.load("grace"))

        #expect(store.state.names == ["ada #1", "grace #2"])
        #expect(client.store(for: NameQuery("ada", backend: backend)).currentValue == "ada #1")

        backend.failNext(1)
        await store.dispatch(.load("ada"))
        #expect(store.state.failures == 1)
    }

    @Test func aMiddlewareUnderTheTestStoreIsAwaited() async {
        let backend = Backend()
        let client = makeClient(automaticFetching: false)
        let store = TestStore(
            state: State(), reducer: Self.reducer, services: (),
            middlewares: [Self.loadNames(through: client, from: backend)])

        await store.send(.load("ada"))
        await store.receive(.loaded("ada #1")) { $0.names = ["ada #1"] }
    }
}

extension Result where Failure == any Error {
    func map<T>(_ transform: (Success) -> T) -> T? {
        (try? get()).map(transform)
    }
}

@Suite("Concurrency and lifetime")
struct ConcurrencyTests {
    @Test func concurrentSubscribersFetchesAndInvalidationsLeaveAConsistentStore() async throws {
        let backend = Backend()
        let client = makeClient()
        let stores = (0..<10).map { client.store(for: NameQuery("\($0)", backend: backend)) }

        await withTaskGroup(of: Void.self) { group in
            for index in 0..<2_000 {
                group.addTask {
                    let store = stores[index % 10]
                    switch index % 4 {
                    case 0:
                        let subscription = store.subscribe(with: QueryEventHandler { _, _ in })
                        subscription.cancel()
                    case 1: _ = try? await store.fetch()
                    case 2: await client.invalidateStores(matching: ["names", "\(index % 10)"])
                    default: _ = store.state
                    }
                }
            }
        }
        await client.waitUntilIdle()

        for (index, store) in stores.enumerated() {
            #expect(store.subscriberCount == 0)
            #expect(store.activeTasks.allSatisfy { $0.isFinished })
            // A subscriber that leaves at once cancels the fetch it started, so a store may end
            // cancelled; it never ends loading or failed.
            #expect([.success, .cancelled].contains(store.status))
            // Odd stores are fetched explicitly (index % 4 == 1), and those fetches always finish.
            if index.isMultiple(of: 2) == false { #expect(store.currentValue != nil) }
        }
        #expect(client.activeTaskCount == 0)
    }

    @Test func aClientWithWorkInFlightIsReleasedAndItsRunsEnd() async throws {
        let backend = Backend(gated: true)
        var client: OperationClient? = makeClient()
        weak let weakClient = client
        weak let weakStore = client!.store(for: NameQuery("ada", backend: backend))
        let subscription = weakStore!.subscribe(with: QueryEventHandler())
        let run = try #require(weakStore?.activeTasks.first)
        await backend.gate!.arrival()

        client = nil
        subscription.cancel()

        #expect(weakClient == nil)
        #expect(weakStore == nil)
        await #expect(throws: CancellationError.self) { try await run.runIfNeeded() }
        #expect(run.isFinished)
    }

    @Test func aClearedStoreEndsItsRunWhenItsOnlyCallerIsCancelled() async throws {
        let backend = Backend(gated: true)
        let client = makeClient()
        var store: OperationStore? = client.store(for: NameQuery("ada", backend: backend))
        let fetch = Task { [store] in try await store!.fetch() }
        await backend.gate!.arrival()
        let run = try #require(store?.activeTasks.first)
        client.clearStores()
        store = nil
        // The fetch task still holds the store; cancelling the only caller ends the run.
        fetch.cancel()
        await #expect(throws: CancellationError.self) { try await fetch.value }
        await #expect(throws: CancellationError.self) { try await run.runIfNeeded() }
        await client.waitUntilIdle()
    }
}
