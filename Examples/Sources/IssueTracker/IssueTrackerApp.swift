import Foundation
import Lockstep
import LockstepQuery

/// What the tracker's side effects use: the issue server, the query client that caches its
/// answers (and retries failed fetches), the clock of the search's debounce, and the maker of
/// local comment ids.
public struct IssueTrackerServices: Sendable {
    /// The issue server.
    public var api: FakeIssueAPI
    /// The app's query client: it runs ``IssuesQuery`` and ``CommentsQuery`` against `api`.
    public var queries: OperationClient
    /// The clock of the search's debounce: `ContinuousClock()` in the app, a manual clock in
    /// tests.
    public var clock: any Clock<Duration>
    /// Makes the local id of a comment not sent yet.
    public var newCommentID: @Sendable () -> String

    /// Creates the services, and puts `api` in the context of the queries `queries` runs.
    public init(
        api: FakeIssueAPI,
        queries: OperationClient,
        clock: any Clock<Duration>,
        newCommentID: @escaping @Sendable () -> String = { "local-\(UUID().uuidString)" }
    ) {
        self.api = api
        self.queries = queries
        self.clock = clock
        self.newCommentID = newCommentID
        queries.defaultContext[IssueAPIKey.self] = api
    }

    /// The store of the issue list for `search`.
    public func feed(for search: String) -> InfiniteQueryStoreOf<IssuesQuery> {
        queries.store(for: IssuesQuery(search: search))
    }
}

/// The whole app: the list, and the screen of one issue while it is shown.
public struct IssueTrackerState: Equatable, Sendable {
    /// The issue list.
    public var list = IssueListState()
    /// The issue's screen, while shown.
    public var detail: IssueDetailState?

    /// The app with an empty list.
    public init() {}
}

/// Every action of the app: one case per feature, and the presentation of an issue.
public enum IssueTrackerAction: Equatable, Sendable {
    /// An action of the list.
    case list(IssueListAction)
    /// An action of the issue's screen.
    case detail(IssueDetailAction)
    /// Show the screen of the issue `id` of the list.
    case openIssue(id: Int)
    /// Dismiss the issue's screen.
    case dismissIssue

    /// The list action of a `list` action.
    public var list: IssueListAction? {
        if case .list(let action) = self { action } else { nil }
    }

    /// The screen action of a `detail` action.
    public var detail: IssueDetailAction? {
        if case .detail(let action) = self { action } else { nil }
    }
}

/// The app's reducer: each feature's reducer on its part, and the presentation of an issue.
public let issueTrackerReducer: InPlaceReducer<IssueTrackerState, IssueTrackerAction> = combineReducers(
    scopeReducer(issueListReducer, state: \IssueTrackerState.list, action: \IssueTrackerAction.list),
    ifLetReducer(issueDetailReducer, state: \IssueTrackerState.detail, action: \IssueTrackerAction.detail),
    { state, action in
        switch action {
        case .openIssue(let id):
            state.detail = state.list.feed.issues.first { $0.id == id }.map { IssueDetailState(issue: $0) }
        case .dismissIssue:
            state.detail = nil
        case .list, .detail:
            break
        }
    }
)

/// The app's middlewares: each feature's, lifted to its part. The screen's is lifted with
/// `ifLetMiddleware`, so dismissing it ends its comments bridge.
@SideEffectBuilder<IssueTrackerState, IssueTrackerAction, IssueTrackerServices>
public var issueTrackerMiddlewares: [SideEffect<IssueTrackerState, IssueTrackerAction, IssueTrackerServices>] {
    scopeMiddleware(
        issueListMiddleware, state: \IssueTrackerState.list, action: \IssueTrackerAction.list,
        embed: IssueTrackerAction.list)
    ifLetMiddleware(
        issueDetailMiddleware, state: \IssueTrackerState.detail, action: \IssueTrackerAction.detail,
        embed: IssueTrackerAction.detail)
}

/// A store of the app.
@MainActor
public func makeIssueTrackerStore(
    services: IssueTrackerServices, state: IssueTrackerState = IssueTrackerState()
) -> Store<IssueTrackerState, IssueTrackerAction> {
    Store(state: state, reducer: issueTrackerReducer, services: services) { issueTrackerMiddlewares }
}
