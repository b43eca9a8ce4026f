// The code of the articles "Configuring queries" and "Controlling stores from outside"
// (Sources/LockstepQuery/Documentation.docc), which quote it, and their tests.
import Lockstep
import LockstepQuery
import LockstepTesting
import Testing

// MARK: - A query configured where it is made

struct Team: Sendable, Equatable {
    let id: Int
    var name: String

    struct Query: QueryRequest {
        let id: Int

        var path: OperationPath { ["teams", id] }

        func fetch(
            isolation: isolated (any Actor)?,
            in context: OperationContext,
            with continuation: OperationContinuation<Team, any Error>
        ) async throws -> Team {
            Team(id: id, name: "Team \(id)")
        }
    }
}

extension Team {
    static func query(id: Int) -> some QueryRequest<Team, any Error> {
        Query(id: id)
            .retry(limit: 5)
            .backoff(.fibonacci(.seconds(1)).jittered())
            .stale(after: .seconds(60))
    }
}

// MARK: - A query that configures itself

enum ConfiguredInSetup {
    struct Query: QueryRequest {
        func setup(context: inout OperationContext) {
            context.retryLimit = 5
        }
        // fetch(isolation:in:with:)
    }
}

extension ConfiguredInSetup.Query {
    func fetch(
        isolation: isolated (any Actor)?,
        in context: OperationContext,
        with continuation: OperationContinuation<String, any Error>
    ) async throws -> String {
        "configured"
    }
}

/// A user API that fails a number of times, then answers.
final class FlakyUserAPI: UserAPI {
    private let remainingFailures: Lock<Int>

    init(failures: Int) {
        remainingFailures = Lock(failures)
    }

    struct Unreachable: Error {}

    func user(id: Int) async throws -> User {
        let fails = remainingFailures.withLock { remaining in
            defer { remaining -= 1 }
            return remaining > 0
        }
        if fails { throw Unreachable() }
        return User(id: id, name: "Ada")
    }

    func rename(id: Int, to name: String) async throws -> User {
        User(id: id, name: name)
    }
}

@Test func retriesTwice() async throws {
    let client = OperationClient()
    client.defaultContext[UserAPIKey.self] = FlakyUserAPI(failures: 2)   // fails twice, then answers
    let store = client.store(for: User.query(id: 42).retry(limit: 2))
    #expect(try await store.fetch().id == 42)
}

enum Inbox {
    static let query = Query()

    struct Query: QueryRequest {
        var path: OperationPath { ["inbox"] }

        func fetch(
            isolation: isolated (any Actor)?,
            in context: OperationContext,
            with continuation: OperationContinuation<[String], any Error>
        ) async throws -> [String] {
            ["Welcome"]
        }
    }
}

@Suite("The configuring-queries article")
struct ConfiguringQueriesArticleTests {
    @Test("The modified request makes the store with its configuration")
    func configuredWhereItIsMade() async throws {
        let client = OperationClient()
        let store = client.store(for: Team.query(id: 42))
        #expect(store.currentValue == nil)
        #expect(try await store.fetch() == Team(id: 42, name: "Team 42"))
        #expect(store.context.retryLimit == 5)
    }

    @Test("A request's setup configures its store")
    func configuredInSetup() {
        let store = OperationClient().store(for: ConfiguredInSetup.Query())
        #expect(store.context.retryLimit == 5)
    }

    @Test("Nothing fetches until the condition is satisfied")
    func automaticFetchingWaitsForTheCondition() async {
        let client = OperationClient()
        let signedIn = ManualCondition(false)
        let inbox = client.store(for: Inbox.query.enableAutomaticFetching(onlyWhen: signedIn.condition))
        let subscription = inbox.subscribe(with: QueryEventHandler())  // no fetch yet
        signedIn.send(true)                                            // fetches now
        await client.waitUntilIdle()
        #expect(inbox.currentValue == ["Welcome"])
        subscription.cancel()
    }

    @Test("Setting a store's context configures that store alone")
    func oneStoreAtATime() {
        let client = OperationClient()
        let store = client.store(for: User.query(id: 42))
        store.context.retryLimit = 0
        store.context.automaticFetchingCondition = .always(false)
        store.staleness = .never
        let subscription = store.subscribe(with: QueryEventHandler())
        #expect(store.activeTasks.isEmpty)   // automatic fetching is off for this store alone
        #expect(client.store(for: User.query(id: 43)).context.automaticFetchingCondition.isSatisfied)
        subscription.cancel()
    }
}

// MARK: - Controlling stores from outside

struct Price: Sendable, Equatable {
    let cents: Int
}

/// A socket that pushes prices.
protocol PriceSocket: Sendable {
    var prices: any AsyncSequence<Price, any Error> { get }
}

enum Prices {
    static let query = Query()

    struct Query: QueryRequest {
        var path: OperationPath { ["prices"] }

        struct PricesComeFromTheSocket: Error {}

        func fetch(
            isolation: isolated (any Actor)?,
            in context: OperationContext,
            with continuation: OperationContinuation<Price, any Error>
        ) async throws -> Price {
            throw PricesComeFromTheSocket()
        }
    }
}

struct PriceSocketController: OperationController {
    let socket: PriceSocket

    func control(
        with controls: OperationControls<QueryState<Price, any Error>>
    ) -> OperationSubscription {
        let task = Task {
            do {
                for try await price in socket.prices { controls.yield(price) }
            } catch {
                controls.yield(throwing: error)
            }
        }
        return OperationSubscription { task.cancel() }
    }
}

func makePricesStore(client: OperationClient, socket: PriceSocket) -> OperationStore<QueryState<Price, any Error>> {
    let prices = client.store(for: Prices.query.controlled(by: PriceSocketController(socket: socket)))
    return prices
}

/// A socket the test sends prices through: `send` returns once the controller has taken the
/// price and asked for the next one (LockstepTesting's EventSource).
struct TestPriceSocket: PriceSocket {
    private let events = EventSource<Price>()

    var prices: any AsyncSequence<Price, any Error> {
        events.map { price throws in price }
    }

    func send(_ price: Price) async {
        await events.send(price)
    }
}

@Test func pricesFromTheSocketReachTheStore() async {
    let socket = TestPriceSocket()
    let store = OperationClient().store(
        for: Prices.query.controlled(by: PriceSocketController(socket: socket)))
    await socket.send(Price(cents: 120))   // returns once the controller has yielded it
    #expect(store.currentValue == Price(cents: 120))
}
