// The code of "The first delivery" and "A bridge a feature owns" in the article "One source of
// truth with the store" (Sources/LockstepQuery/Documentation.docc/OneSourceOfTruth.md), which
// quotes it, and its tests.
import Lockstep
import LockstepQuery
import LockstepTesting
import SwiftUIStandIns
import Testing

struct CommentsState: Equatable, Sendable {
    var issue: Int
    var comments: [String] = []
    var status: OperationStatus = .idle
}

enum CommentsAction: Equatable, Sendable {
    case task
    case commentsChanged([String], OperationStatus)
}

func commentsReducer(_ state: inout CommentsState, _ action: CommentsAction) {
    guard case .commentsChanged(let comments, let status) = action else { return }
    state.comments = comments
    state.status = status
}

protocol CommentsAPI: Sendable {
    func comments(of issue: Int) async throws -> [String]
}

enum CommentsAPIKey: OperationContext.Key {
    static var defaultValue: any CommentsAPI { UnimplementedCommentsAPI() }   // fails a test that forgot it
}

/// Fails the test that calls it: the default of `CommentsAPIKey`.
struct UnimplementedCommentsAPI: CommentsAPI {
    func comments(of issue: Int) async throws -> [String] {
        let comments: @Sendable (Int) async throws -> [String] = unimplemented("CommentsAPI.comments")
        return try await comments(issue)
    }
}

/// Stands for the server in the tests: the same comments for every issue.
struct FixedComments: CommentsAPI {
    let comments: [String]

    func comments(of issue: Int) async throws -> [String] {
        comments
    }
}

struct CommentsQuery: QueryRequest {
    let issue: Int

    var path: OperationPath { ["comments", issue] }

    func fetch(
        isolation: isolated (any Actor)?,
        in context: OperationContext,
        with continuation: OperationContinuation<[String], any Error>
    ) async throws -> [String] {
        try await context[CommentsAPIKey.self].comments(of: issue)
    }
}

struct AppServices: Sendable {
    let client: OperationClient
}

func commentsMiddleware(
    state: CommentsState,
    action: CommentsAction,
    services: AppServices,
    dispatch: Dispatcher<CommentsAction>
) async {
    guard action == .task else { return }
    await services.client.store(for: CommentsQuery(issue: state.issue))
        .bridge(to: dispatch) { .commentsChanged($0.currentValue ?? [], $0.status) }
}

/// The screen of a child store of comments, which owns its bridge through the view's task.
struct CommentsView: View {
    let comments: ChildStore<CommentsState, CommentsAction>
    let client: OperationClient

    var body: some View {
        Text("\(comments.comments.count) comments")
            .task {
                await client.store(for: CommentsQuery(issue: comments.issue))
                    .bridge(to: comments) { .commentsChanged($0.currentValue ?? [], $0.status) }
            }
    }
}

@MainActor
@Suite("The one-source-of-truth article: a bridge a feature owns")
struct FeatureOwnedBridgeArticleTests {
    /// A client that fetches only when asked, so the test decides when the comments load.
    func makeClient() -> OperationClient {
        let client = OperationClient(storeCreator: .default(queryEnableAutomaticFetchingCondition: .always(false)))
        client.defaultContext[CommentsAPIKey.self] = FixedComments(comments: ["First!"])
        return client
    }

    @Test("The middleware's bridge sends the idle state first, then each state, until its task is cancelled")
    func theBridgeSendsTheIdleStateFirst() async throws {
        let client = makeClient()
        let store = TestStore(
            state: CommentsState(issue: 7), reducer: commentsReducer, services: AppServices(client: client),
            middlewares: [commentsMiddleware])

        let task = await store.send(.task)
        await store.receive(.commentsChanged([], .idle))   // not fetched yet
        try await client.store(for: CommentsQuery(issue: 7)).fetch()
        await store.receive(.commentsChanged([], .loading)) { $0.status = .loading }
        await store.receive(.commentsChanged(["First!"], .success)) {
            $0.comments = ["First!"]
            $0.status = .success
        }
        await task.cancel()   // or dismiss the screen: the bridge ends
        #expect(client.store(for: CommentsQuery(issue: 7)).subscriberCount == 0)
    }
}
