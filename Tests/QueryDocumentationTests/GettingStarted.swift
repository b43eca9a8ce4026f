// The code of LockstepQuery's article "Getting started"
// (Sources/LockstepQuery/Documentation.docc/GettingStarted.md), which quotes it. The other
// articles of the catalog use its `User.query(id:)` and `UserAPIKey` too.
import Lockstep
import LockstepTesting
import Observation
import Testing
import LockstepQuery

struct User: Sendable, Equatable {
    let id: Int
    var name: String
}

extension User {
    static func query(id: Int) -> Query { Query(id: id) }

    struct Query: QueryRequest {
        let id: Int

        var path: OperationPath { ["users", id] }

        func fetch(
            isolation: isolated (any Actor)?,
            in context: OperationContext,
            with continuation: OperationContinuation<User, any Error>
        ) async throws -> User {
            try await context[UserAPIKey.self].user(id: id)
        }
    }
}

protocol UserAPI: Sendable {
    func user(id: Int) async throws -> User
    func rename(id: Int, to name: String) async throws -> User
}

enum UserAPIKey: OperationContext.Key {
    static var defaultValue: any UserAPI { UnimplementedUserAPI() }
}

/// Fails the test that calls it: the default of `UserAPIKey`.
struct UnimplementedUserAPI: UserAPI {
    func user(id: Int) async throws -> User {
        let user: @Sendable (Int) async throws -> User = unimplemented("UserAPI.user")
        return try await user(id)
    }

    func rename(id: Int, to name: String) async throws -> User {
        let rename: @Sendable (Int, String) async throws -> User = unimplemented("UserAPI.rename")
        return try await rename(id, name)
    }
}

/// Stands for the app's API client, which would call the server: every user is Ada.
struct LiveUserAPI: UserAPI {
    func user(id: Int) async throws -> User {
        User(id: id, name: "Ada")
    }

    func rename(id: Int, to name: String) async throws -> User {
        User(id: id, name: name)
    }
}

// MARK: - Watching the state (compiled, not run: it prints, or loops for as long as the store lives)

func watch(_ store: OperationStore<QueryState<User, any Error>>) {
    var subscriptions = Set<OperationSubscription>()

    store.subscribe(
        with: QueryEventHandler { state, _ in
            print(state.status, state.currentValue?.name ?? "none")
        }
    )
    .store(in: &subscriptions)
}

func render(_ user: User?) {}

func renderEachState(of store: OperationStore<QueryState<User, any Error>>) async {
    for await state in store.states where !state.isLoading {
        render(state.currentValue)
    }
}

@MainActor
@Observable
final class ProfileModel {
    @ObservationIgnored
    @SharedOperation(User.query(id: 42)) var user
}

func makeAppClient() -> OperationClient {
    let client = OperationClient(
        storeCreator: .default(
            retryLimit: 5,
            backoff: .exponential(.seconds(1), maximum: .seconds(30)).jittered()
        )
    )
    return client
}

// MARK: - Staleness: the query with a staleness of its own

enum FreshForAMinute {
    struct Query: QueryRequest {
        let id: Int
        var path: OperationPath { ["users", id] }
        var staleness: Staleness<QueryState<User, any Error>> { .after(.seconds(60)) }
        // fetch(isolation:in:with:) as before
    }
}

extension FreshForAMinute.Query {
    func fetch(
        isolation: isolated (any Actor)?,
        in context: OperationContext,
        with continuation: OperationContinuation<User, any Error>
    ) async throws -> User {
        try await context[UserAPIKey.self].user(id: id)
    }
}

// MARK: - A mutation

struct RenameUser: MutationRequest {
    let id: Int

    func mutate(
        isolation: isolated (any Actor)?,
        with name: String,
        in context: OperationContext,
        with continuation: OperationContinuation<User, any Error>
    ) async throws -> User {
        let userStore = context.client?.store(for: User.query(id: id))
        let previous = userStore?.currentValue
        if previous != nil {
            userStore?.currentValue = User(id: id, name: name)   // optimistic update
        }
        do {
            let renamed = try await context[UserAPIKey.self].rename(id: id, to: name)
            userStore?.currentValue = renamed
            return renamed
        } catch {
            userStore?.currentValue = previous                   // roll back
            throw error
        }
    }
}

// MARK: - A Lockstep store whose middleware fetches

enum ProfileAction: Sendable {
    case load(id: Int)
    case loaded(Result<String, any Error>)
}

/// The app of the article: Lockstep's Today feature, reduced to a loading flag, and a profile.
struct AppState: Equatable, Sendable {
    var isLoadingToday = false
    var profileName: String?
}

enum AppAction: Sendable {
    case today(TodayAction)
    case profile(ProfileAction)
}

enum TodayAction: Sendable {
    case loadShifts
    case shiftsLoaded([String])
}

let appReducer: InPlaceReducer<AppState, AppAction> = { state, action in
    switch action {
    case .today(.loadShifts): state.isLoadingToday = true
    case .today(.shiftsLoaded): state.isLoadingToday = false
    case .profile(.loaded(let result)): state.profileName = try? result.get()
    case .profile(.load): break
    }
}

protocol CalendarService: Sendable {
    func loadShifts() async -> [String]
}

/// Stands for the app's calendar.
struct LiveCalendarService: CalendarService {
    func loadShifts() async -> [String] { ["Morning"] }
}

struct ServiceContainer: Sendable {
    let calendarService: any CalendarService
}

func todayMiddleware(
    state: AppState, action: AppAction, services: ServiceContainer, dispatch: Dispatcher<AppAction>
) async {
    guard case .today(.loadShifts) = action else { return }
    await dispatch(.today(.shiftsLoaded(await services.calendarService.loadShifts())))
}

@MainActor
@Suite("LockstepQuery's getting-started article")
struct GettingStartedArticleTests {
    @Test("The store fetches the user through the API in the client's context")
    func getTheStoreAndFetch() async throws {
        let client = OperationClient()
        client.defaultContext[UserAPIKey.self] = LiveUserAPI()
        let store = client.store(for: User.query(id: 42))

        let user = try await store.fetch()
        #expect(store.currentValue == user)
        #expect(store.status == .success)
    }

    @Test("A query run before anyone set the key fails the test")
    func theKeysDefaultFails() async {
        let client = OperationClient()
        await withKnownIssue {
            _ = try? await client.store(for: User.query(id: 42)).fetch()
        }
    }

    @Test("Invalidating a family refetches the subscribed stores under it, and returns when they are done")
    func invalidateAFamily() async throws {
        let client = OperationClient()
        client.defaultContext[UserAPIKey.self] = LiveUserAPI()
        let store = client.store(for: User.query(id: 42))
        let subscription = store.subscribe(with: QueryEventHandler())
        await client.waitUntilIdle()
        store.currentValue = User(id: 42, name: "Someone else")

        await client.invalidateStores(matching: ["users"])       // every user
        await client.invalidateStores(matching: ["users", 42])   // one user
        #expect(store.currentValue?.name == "Ada")
        subscription.cancel()
    }

    @Test("A rename shows at once in the user's store and ends as the server's answer")
    func renameUser() async throws {
        let client = OperationClient()
        client.defaultContext[UserAPIKey.self] = LiveUserAPI()
        let user = client.store(for: User.query(id: 42))
        try await user.fetch()

        let rename = client.store(for: RenameUser(id: 42))
        try await rename.mutate(with: "Ada")
        #expect(rename.state.history.last?.status == .success)
        #expect(user.currentValue == User(id: 42, name: "Ada"))
    }

    @Test("The staleness of the query's own type")
    func staleAfterAMinute() async throws {
        let client = OperationClient()
        client.defaultContext[UserAPIKey.self] = LiveUserAPI()
        let store = client.store(for: FreshForAMinute.Query(id: 1))
        try await store.fetch()
        #expect(store.isStale == false)
    }

    @Test("The client's middleware fetches the profile and dispatches its name")
    func middlewareFetches() async {
        let client = OperationClient()
        client.defaultContext[UserAPIKey.self] = LiveUserAPI()
        let store = Store(
            state: AppState(),
            reducer: appReducer,
            services: ServiceContainer(calendarService: LiveCalendarService()),
            middlewares: [
                todayMiddleware,
                client.middleware(
                    fetching: { action -> User.Query? in
                        guard case .profile(.load(let id)) = action else { return nil }
                        return User.query(id: id)
                    },
                    then: { result in .profile(.loaded(result.map(\.name))) }
                ),
            ]
        )

        await store.dispatch(.profile(.load(id: 42)))
        // .profile(.loaded) has been reduced.
        #expect(store.state.profileName == "Ada")
    }

    @Test("The model's user loads through the shared operation")
    func modelLoads() async throws {
        let client = OperationClient()
        client.defaultContext[UserAPIKey.self] = LiveUserAPI()
        let model = OperationClient.$current.withValue(client) { ProfileModel() }
        try await model.$user.load()
        #expect(model.user?.name == "Ada")
    }
}
