// The code of the articles "Managing the cache" and "The subscription lifecycle"
// (Sources/LockstepQuery/Documentation.docc), which quote it, and their tests. The snippets that
// print are compiled, not run, so that the tests stay quiet.
import Lockstep
import LockstepQuery
import Testing

struct Settings: Sendable, Equatable {
    var theme = "light"

    static let query = Query()

    struct Query: QueryRequest {
        var path: OperationPath { ["settings"] }

        func fetch(
            isolation: isolated (any Actor)?,
            in context: OperationContext,
            with continuation: OperationContinuation<Settings, any Error>
        ) async throws -> Settings {
            Settings(theme: "dark")
        }
    }
}

enum SessionError: Error {
    case signedOut
}

enum APIError: Error {
    case offline
}

/// A search whose results wait for an explicit fetch.
enum Search {
    static func query(text: String) -> Query { Query(text: text) }

    struct Query: QueryRequest {
        let text: String

        func fetch(
            isolation: isolated (any Actor)?,
            in context: OperationContext,
            with continuation: OperationContinuation<[String], any Error>
        ) async throws -> [String] {
            [text]
        }
    }
}

// MARK: - Compiled, not run: they print

func logStoreChanges(of client: OperationClient) -> OperationSubscription {
    let subscription = client.subscribe(matching: ["users"]) { change in
        for path in change.storesAdded.keys { print("added", path) }
        for path in change.storesRemoved.keys { print("removed", path) }
    }
    return subscription
}

func logRenames(client: OperationClient) -> Set<OperationSubscription> {
    var subscriptions = Set<OperationSubscription>()
    let store = client.store(for: RenameUser(id: 42))
    store.subscribe(
        with: MutationEventHandler(
            onMutatingStarted: { name, _ in print("renaming to", name) },
            onMutationResultReceived: { name, result, _ in print(name, result) },
            onMutatingEnded: { name, _ in print("done", name) }
        )
    )
    .store(in: &subscriptions)
    return subscriptions
}

func fetchLoggingTheResult(of store: OperationStore<QueryState<User, any Error>>) async throws -> User {
    let user = try await store.fetch(
        handler: QueryEventHandler(onResultReceived: { result, _ in print(result) })
    )
    return user
}

func logEventOrder(of store: OperationStore<QueryState<User, any Error>>) -> Set<OperationSubscription> {
    var subscriptions = Set<OperationSubscription>()
    store.subscribe(
        with: QueryEventHandler(
            onStateChanged: { state, _ in print(state.status) },  // loading
            onRunStarted: { _ in print("started") },
            onResultReceived: { result, _ in print(result) },
            onRunEnded: { _ in print("ended") }                   // then success
        )
    )
    .store(in: &subscriptions)
    return subscriptions
}

@Suite("The cache and subscription articles")
struct ManagingTheCacheArticleTests {
    /// A client whose user queries answer, with two users fetched.
    func clientWithTwoUsers() async throws -> OperationClient {
        let client = OperationClient()
        client.defaultContext[UserAPIKey.self] = LiveUserAPI()
        try await client.store(for: User.query(id: 1)).fetch()
        try await client.store(for: User.query(id: 2)).fetch()
        return client
    }

    @Test("A default value is there before the first fetch")
    func defaultValue() {
        let client = OperationClient()
        let settings = client.store(for: Settings.query.defaultValue(Settings()))
        #expect(settings.currentValue == Settings())
        #expect(settings.status == .idle)
    }

    @Test("The stores under a path, read and changed")
    func findingStores() async throws {
        let client = try await clientWithTwoUsers()
        let users = client.stores(matching: ["users"], of: QueryState<User, any Error>.self)
        for store in users.values { store.currentValue?.name = "Anonymous" }
        #expect(client.store(for: User.query(id: 2)).currentValue?.name == "Anonymous")
    }

    @Test("Stores the closure removes leave the client")
    func editingTheSetOfStores() async throws {
        let client = try await clientWithTwoUsers()
        client.withStores(matching: ["users"], of: QueryState<User, any Error>.self) { stores in
            for store in stores.values { store.setResult(to: .failure(SessionError.signedOut)) }
            stores.removeAll()
        }
        #expect(client.stores(matching: ["users"]).isEmpty)
    }

    @Test("A result set by hand shows at once")
    func settingAResultByHand() async throws {
        let client = try await clientWithTwoUsers()
        let store = client.store(for: User.query(id: 1))
        let updatedUser = User(id: 1, name: "Grace")
        store.setResult(to: .success(updatedUser))
        store.setResult(to: .failure(APIError.offline))
        #expect(store.currentValue == updatedUser)   // an error keeps the value
        #expect(store.state.error is APIError)
    }

    @Test("Unused stores are evicted on demand and under memory pressure")
    func eviction() async throws {
        let client = try await clientWithTwoUsers()
        let evicted = client.evictUnusedStores()
        #expect(evicted.count == 2)
    }

    @Test("Memory pressure forgets the unused stores")
    func memoryPressure() {
        let pressure = ManualMemoryPressureSource()
        let client = OperationClient(memoryPressureSource: pressure)
        let store = client.store(for: User.query(id: 1))
        pressure.send(.warning)   // the unused store is forgotten before send returns
        #expect(client.stores(matching: ["users"]).isEmpty)
        #expect(store.currentValue == nil)
    }

    @Test("Two subscribers share the fetch the first one started")
    func theFirstSubscriberFetches() async {
        let client = OperationClient()
        let api = MockUserAPI()
        client.defaultContext[UserAPIKey.self] = api
        let store = client.store(for: User.query(id: 42))
        let a = store.subscribe(with: QueryEventHandler())  // starts the fetch
        let b = store.subscribe(with: QueryEventHandler())  // shares it
        await client.waitUntilIdle()
        #expect(api.userCalls.count == 1)
        a.cancel()
        b.cancel()
    }

    @Test("A lazy query waits for an explicit fetch")
    func lazyQueries() {
        let client = OperationClient()
        let search = client.store(for: Search.query(text: "").lazy())
        let subscription = search.subscribe(with: QueryEventHandler())  // no fetch
        #expect(search.activeTasks.isEmpty)
        subscription.cancel()
    }
}
