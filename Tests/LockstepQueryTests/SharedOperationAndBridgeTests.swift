import Foundation
import Lockstep
@testable import LockstepQuery
import LockstepTesting
import Observation
import Testing

/// A model that shares a query, an infinite query and a mutation.
@MainActor
@Observable
final class FeedModel {
    @ObservationIgnored @SharedOperation<QueryState<String, any Error>> var name: String?
    @ObservationIgnored @SharedOperation<InfiniteQueryState<Int, String, any Error>> var feed: InfiniteQueryPages<Int, String>?
    @ObservationIgnored @SharedOperation<MutationState<String, String, any Error>> var rename: String?

    init(client: OperationClient, backend: Backend, feed: FeedBackend) {
        _name = SharedOperation(NameQuery("ada", backend: backend), client: client)
        _feed = SharedOperation(FeedQuery(name: "model", backend: feed), client: client)
        _rename = SharedOperation(RecordName(backend: backend), client: client)
    }
}

@Suite("SharedOperation for every kind of store")
@MainActor
struct SharedOperationTests {
    @Test func aModelFetchesPagesThroughItsWrapper() async throws {
        let client = makeClient(automaticFetching: false)
        let model = FeedModel(client: client, backend: Backend(), feed: FeedBackend())
        let changed = ChangeFlag()
        withObservationTracking { _ = model.$feed.hasNextPage } onChange: { changed.set() }

        try await model.$feed.fetchNextPage()
        try await model.$feed.fetchNextPage()

        #expect(changed.isSet)
        #expect(model.feed?.map(\.id) == [0, 1])
        #expect(model.$feed.pages.map(\.value) == ["page 0 #1", "page 1 #2"])
        #expect(model.$feed.hasNextPage)
        #expect(!model.$feed.hasPreviousPage)
        #expect(!model.$feed.isLoadingNextPage && !model.$feed.isLoadingAllPages)
        try await model.$feed.fetchAllPages()
        #expect(model.$feed.pages.map(\.value) == ["page 0 #3", "page 1 #4"])
        #expect(try await model.$feed.fetchPreviousPage() == nil)
    }

    @Test func aModelRunsAMutationAndReadsItsStatus() async throws {
        let backend = Backend()
        let client = makeClient(automaticFetching: false)
        let model = FeedModel(client: client, backend: backend, feed: FeedBackend())
        let changed = ChangeFlag()
        withObservationTracking { _ = model.$rename.status } onChange: { changed.set() }
        #expect(model.$rename.status == .idle)

        let value = try await model.$rename.mutate(with: "grace")

        #expect(changed.isSet)
        #expect(value == "grace #1")
        #expect(model.rename == "grace #1")
        #expect(model.$rename.status == .success)
        backend.failNext(1)
        await #expect(throws: BackendError(call: 2)) { try await model.$rename.retryLatest() }
        #expect(model.$rename.status == .failure)
        #expect(model.$rename.error as? BackendError == BackendError(call: 2))
        #expect(!model.$rename.isLoading)
    }

    @Test func writingTheWrappedValueSetsTheStore() async throws {
        let client = makeClient(automaticFetching: false)
        let backend = Backend()
        let model = FeedModel(client: client, backend: backend, feed: FeedBackend())
        let heard = StateLog<String?>()
        let subscription = client.store(for: NameQuery("ada", backend: backend))
            .subscribe(with: QueryEventHandler { state, _ in heard.append(state.currentValue) })

        model.name = "edited"

        #expect(client.store(for: NameQuery("ada", backend: backend)).currentValue == "edited")
        #expect(heard.all == [nil, "edited"])
        #expect(model.name == "edited")
        subscription.cancel()
    }

    @Test func aMutationOnAReleasedClientIsReported() async throws {
        var client: OperationClient? = makeClient(automaticFetching: false)
        let backend = Backend()
        let model = FeedModel(client: client!, backend: backend, feed: FeedBackend())
        client = nil

        await withKnownIssue {
            await #expect(throws: OperationClientReleasedError.self) {
                try await model.$rename.mutate(with: "grace")
            }
        } matching: { issue in
            issue.description.contains("released")
        }
        #expect(backend.calls == 0)
    }
}

// MARK: - Bridge

/// A todo list whose additions are applied optimistically and rolled back when they fail.
final class TodoServer: Sendable {
    let gate = Gate()
    private let todos = Lock(["milk"])
    var saved: [String] { todos.withLock { $0 } }
}

struct TodosQuery: QueryRequest {
    let server: TodoServer
    var path: OperationPath { ["todos"] }
    static func == (lhs: Self, rhs: Self) -> Bool { true }
    func hash(into hasher: inout Hasher) {}

    func fetch(
        isolation: isolated (any Actor)?, in context: OperationContext,
        with continuation: OperationContinuation<[String], any Error>
    ) async throws -> [String] {
        server.saved
    }
}

struct AddTodo: MutationRequest {
    struct Rejected: Error, Equatable {}
    let server: TodoServer
    var path: OperationPath { ["add-todo"] }
    static func == (lhs: Self, rhs: Self) -> Bool { true }
    func hash(into hasher: inout Hasher) {}

    func mutate(
        isolation: isolated (any Actor)?, with arguments: String, in context: OperationContext,
        with continuation: OperationContinuation<[String], any Error>
    ) async throws -> [String] {
        let todos = context.client!.store(for: TodosQuery(server: server))
        let before = todos.currentValue ?? []
        todos.currentValue = before + [arguments]   // optimistic
        await server.gate.pass()
        todos.currentValue = before   // the server said no: roll back
        throw Rejected()
    }
}

@Suite("OperationBridge")
@MainActor
struct OperationBridgeTests {
    enum Action: Equatable, Sendable {
        case todosChanged([String]?, OperationStatus)
        case addTodoChanged(OperationStatus)
        case feedChanged([Int], isLoadingNextPage: Bool)
        case other
    }

    struct State: Equatable {
        var todos: [String] = []
        var todoHistory: [[String]] = []
        var addStatuses: [OperationStatus] = []
        var feed: [Int] = []
        var others = 0
    }

    static func reducer(_ state: State, _ action: Action) -> State {
        var state = state
        switch action {
        case .todosChanged(let todos, _):
            state.todos = todos ?? []
            if state.todoHistory.last != state.todos { state.todoHistory.append(state.todos) }
        case .addTodoChanged(let status): state.addStatuses.append(status)
        case .feedChanged(let pages, _): state.feed = pages
        case .other: state.others += 1
        }
        return state
    }

    @Test
    func anOptimisticUpdateAndItsRollbackReachTheStoreState() async throws {
        let server = TodoServer()
        let client = makeClient(automaticFetching: false)
        let todos = client.store(for: TodosQuery(server: server))
        try await todos.fetch()
        let appStore = Store(state: State(), reducer: Self.reducer)
        let todosBridge = todos.bridge { Action.todosChanged($0.currentValue, $0.status) }
        let addBridge = client.store(for: AddTodo(server: server)).bridge { Action.addTodoChanged($0.status) }
        let registrations = [appStore.register(todosBridge.effect), appStore.register(addBridge.effect)]
        await todosBridge.synchronize()
        #expect(appStore.state.todos == ["milk"])

        let add = Task { try await client.store(for: AddTodo(server: server)).mutate(with: "eggs") }
        await server.gate.arrival()
        await todosBridge.synchronize()
        await addBridge.synchronize()
        #expect(appStore.state.todos == ["milk", "eggs"])   // the optimistic update
        #expect(appStore.state.addStatuses == [.idle, .loading])

        server.gate.open()
        await #expect(throws: AddTodo.Rejected()) { try await add.value }
        await todosBridge.synchronize()
        await addBridge.synchronize()

        #expect(appStore.state.todos == ["milk"])   // rolled back
        #expect(appStore.state.todoHistory == [["milk"], ["milk", "eggs"], ["milk"]])
        #expect(appStore.state.addStatuses == [.idle, .loading, .failure])
        for registration in registrations { registration.cancel() }
    }

    @Test
    func aDispatchDoesNotWaitForTheBridge() async throws {
        let client = makeClient(automaticFetching: false)
        let todos = client.store(for: TodosQuery(server: TodoServer()))
        let appStore = Store(state: State(), reducer: Self.reducer)
        let bridge = todos.bridge { Action.todosChanged($0.currentValue, $0.status) }
        let registration = appStore.register(bridge.effect)

        await appStore.dispatch(.other)
        await appStore.dispatch(.other)

        #expect(appStore.state.others == 2)
        registration.cancel()
    }

    @Test
    func theBridgeEndsWithItsRegistration() async throws {
        let client = makeClient(automaticFetching: false)
        let todos = client.store(for: TodosQuery(server: TodoServer()))
        let appStore = Store(state: State(), reducer: Self.reducer)
        let bridge = todos.bridge { Action.todosChanged($0.currentValue, $0.status) }
        let registration = appStore.register(bridge.effect)
        #expect(todos.subscriberCount == 1)
        await bridge.synchronize()

        registration.cancel()
        await registration.finished()

        #expect(todos.subscriberCount == 0)
        todos.currentValue = ["late"]
        await bridge.synchronize()   // ended: returns at once
        #expect(appStore.state.todos == [])
    }

    @Test
    func anInfiniteQueryIsBridgedPageByPage() async throws {
        let client = makeClient(automaticFetching: false)
        let feed = client.store(for: FeedQuery(name: "bridge", backend: FeedBackend()))
        let appStore = Store(state: State(), reducer: Self.reducer)
        let bridge = feed.bridge { Action.feedChanged($0.pages.map(\.id), isLoadingNextPage: $0.isLoadingNextPage) }
        let registration = appStore.register(bridge.effect)

        try await feed.fetchNextPage()
        try await feed.fetchNextPage()
        await bridge.synchronize()

        #expect(appStore.state.feed == [0, 1])
        registration.cancel()
    }

    @Test func registeringABridgeTwiceIsReported() async throws {
        let client = makeClient(automaticFetching: false)
        let todos = client.store(for: TodosQuery(server: TodoServer()))
        let appStore = Store(state: State(), reducer: Self.reducer)
        let bridge = todos.bridge { Action.todosChanged($0.currentValue, $0.status) }
        let first = appStore.register(bridge.effect)
        // The first registration has claimed the bridge once it has dispatched the bridge's
        // first state; only then is it certain which registration is the second.
        await bridge.synchronize()

        await withKnownIssue {
            let second = appStore.register(bridge.effect)
            await second.finished()
        } matching: { $0.description.contains("registered") }
        first.cancel()
    }
}

// MARK: - Eviction clock

@Suite("Eviction clock")
struct EvictionClockTests {
    @Test func evictionTimersDoNotSleepOnTheClientsClock() async throws {
        let clock = ManualClock()
        let client = OperationClient(
            storeCreator: .default(
                retryLimit: 1, backoff: .constant(.seconds(1)), delayer: nil,
                networkObserver: nil, focusCondition: nil),
            clock: clock, now: { fixedDate }, evictionDelay: .seconds(300))
        try await client.store(for: NameQuery("unused", backend: Backend())).fetch()   // now unused
        let failing = Backend(failures: 1)

        let fetch = Task { try await client.store(for: NameQuery("retried", backend: failing)).fetch() }
        await clock.sleepers(count: 1)

        #expect(failing.calls == 1)   // the sleeper is the retry's backoff
        #expect(clock.sleeperCount == 1)
        await clock.advance(by: .seconds(1))
        #expect(try await fetch.value == "retried #2")
        #expect(clock.sleeperCount == 0)
    }

    @Test func anEvictionClockWakesTheClientToForgetStores() async throws {
        let clock = ManualClock()
        let client = OperationClient(
            storeCreator: .defaultTesting, clock: clock, now: { fixedDate },
            evictionDelay: .seconds(300), evictionClock: clock)
        let (removed, continuation) = AsyncStream.makeStream(of: OperationPath.self)
        let subscription = client.subscribe(matching: ["names"]) { change in
            for path in change.storesRemoved.keys { continuation.yield(path) }
        }
        let store = client.store(for: NameQuery("ada", backend: Backend()))
        try await store.fetch()
        await clock.sleepers(count: 1)   // the eviction timer

        await clock.advance(by: .seconds(300))

        var paths = removed.makeAsyncIterator()
        #expect(await paths.next() == store.path)
        subscription.cancel()
    }
}
