@testable import LockstepFixtures
import Lockstep
import Testing

/// The middlewares of a store made with services are called by the runner's fast path, one
/// function that calls them one after another until one suspends. These prove it keeps the
/// contract: each middleware called once with the store's services, concurrently with the others,
/// and the dispatch returning when all have returned.
@Suite("Middlewares with services")
struct MiddlewareChainTests {
    struct Services: Sendable {
        let name: String
    }

    /// Three middlewares: the first waits for the third to start, so a runner that called them
    /// one after another without starting the next when one suspends would never return. The time
    /// limit only guards the suite against such a hang.
    static func middlewares(
        calls: Recorder<String>, thirdStarted: Signal
    ) -> [Middleware<Counter, CounterAction, Services>] {
        [
            { _, _, services, _ in
                calls.append("0 \(services.name) started")
                await thirdStarted.wait()
                calls.append("0 returned")
            },
            { _, _, services, _ in calls.append("1 \(services.name)") },
            { _, _, services, _ in
                calls.append("2 \(services.name)")
                thirdStarted.signal()
            },
        ]
    }

    @Test("Store: each middleware runs once with the services, concurrently, before dispatch returns")
    @MainActor
    func storeRunsMiddlewaresWithServices() async {
        let calls = Recorder<String>()
        let thirdStarted = Signal()
        let store = Store(
            state: Counter(), reducer: counterReducer, services: Services(name: "app"),
            middlewares: Self.middlewares(calls: calls, thirdStarted: thirdStarted))

        await store.dispatch(.increment)

        #expect(Set(calls.values) == ["0 app started", "1 app", "2 app", "0 returned"])
        #expect(calls.values.count == 4)
        #expect(calls.values.last == "0 returned")
    }

    @Test("ActorStore: each middleware runs once with the services, concurrently, before dispatch returns")
    func actorStoreRunsMiddlewaresWithServices() async {
        let calls = Recorder<String>()
        let thirdStarted = Signal()
        let store = ActorStore(
            state: Counter(), reducer: counterReducer, services: Services(name: "tool"),
            middlewares: Self.middlewares(calls: calls, thirdStarted: thirdStarted))

        await store.dispatch(.increment)

        #expect(Set(calls.values) == ["0 tool started", "1 tool", "2 tool", "0 returned"])
        #expect(calls.values.count == 4)
        #expect(calls.values.last == "0 returned")
    }

    @Test("A store with one middleware and services hands it the services and the reduced state")
    @MainActor
    func oneMiddlewareWithServices() async {
        let seen = Recorder<String>()
        let store = Store(
            state: Counter(), reducer: counterReducer, services: Services(name: "app"),
            middlewares: [{ state, _, services, _ in seen.append("\(services.name) \(state.value)") }])
        let actorStore = ActorStore(
            state: Counter(), reducer: counterReducer, services: Services(name: "tool"),
            middlewares: [{ state, _, services, _ in seen.append("\(services.name) \(state.value)") }])

        await store.dispatch(.increment)
        await actorStore.dispatch(.increment)
        await actorStore.dispatch(.increment)

        #expect(seen.values == ["app 1", "tool 1", "tool 2"])
    }
}
