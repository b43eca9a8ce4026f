import LockstepQuery

/// Where the queries find the issue server: the client's default context, which
/// ``IssueTrackerServices`` fills in.
public enum IssueAPIKey: OperationContext.Key {
    public static var defaultValue: FakeIssueAPI? { nil }
}

/// The issue list, a page at a time, for one search: each search has its own pages in the
/// client's cache.
public struct IssuesQuery: InfiniteQueryRequest {
    /// The text the titles must contain; empty for every issue.
    public let search: String
    public let initialPageId = 0

    /// The list of the issues whose titles contain `search`.
    public init(search: String) {
        self.search = search
    }

    public var path: OperationPath { ["issues", search] }

    public func pageId(
        after page: InfiniteQueryPage<Int, IssuePage>,
        using paging: InfiniteQueryPaging<Int, IssuePage>,
        in context: OperationContext
    ) -> Int? {
        page.value.hasMore ? page.id + 1 : nil
    }

    public func fetchPage(
        isolation: isolated (any Actor)?,
        using paging: InfiniteQueryPaging<Int, IssuePage>,
        in context: OperationContext,
        with continuation: OperationContinuation<IssuePage, APIError>
    ) async throws(APIError) -> IssuePage {
        guard let api = context[IssueAPIKey.self] else { throw .offline }
        return try await api.issues(matching: search, page: paging.pageId)
    }
}

/// The comments of one issue.
public struct CommentsQuery: QueryRequest {
    /// The issue's number.
    public let issueID: Int

    /// The comments of the issue `issueID`.
    public init(issueID: Int) {
        self.issueID = issueID
    }

    public var path: OperationPath { ["comments", issueID] }

    public func fetch(
        isolation: isolated (any Actor)?,
        in context: OperationContext,
        with continuation: OperationContinuation<[Comment], APIError>
    ) async throws(APIError) -> [Comment] {
        guard let api = context[IssueAPIKey.self] else { throw .offline }
        return try await api.comments(on: issueID)
    }
}

/// What the list shows of a state of an ``IssuesQuery`` store: the action its bridge
/// dispatches.
public struct IssueFeed: Equatable, Sendable {
    /// The issues of every page held, in order.
    public var issues: [TrackedIssue] = []
    /// Where the query stands: `idle` before its first fetch, `loading` while a page loads (or
    /// waits to retry), then `success` or `failure`.
    public var status = OperationStatus.idle
    /// Whether a page follows the last one held.
    public var hasNextPage = false
    /// Where a page fetch that failed stands while it retries; `nil` when nothing retries.
    public var retry: OperationRetry<APIError>?
    /// Why the last page fetch failed for good.
    public var error: APIError?

    /// A feed; the tests spell out the ones they expect.
    public init(
        issues: [TrackedIssue] = [], status: OperationStatus = .idle, hasNextPage: Bool = false,
        retry: OperationRetry<APIError>? = nil, error: APIError? = nil
    ) {
        self.issues = issues
        self.status = status
        self.hasNextPage = hasNextPage
        self.retry = retry
        self.error = error
    }

    /// The feed of a state of the query's store.
    public init(_ state: InfiniteQueryStoreOf<IssuesQuery>.State) {
        self.init(
            issues: state.pages.flatMap(\.value.issues), status: state.status,
            hasNextPage: state.hasNextPage, retry: state.retry, error: state.error)
    }
}

/// What the detail shows of a state of a ``CommentsQuery`` store: the action its bridge
/// dispatches.
public struct CommentsFeed: Equatable, Sendable {
    /// The comments the server has, once fetched.
    public var comments: [Comment] = []
    /// Where the query stands: `idle` before its first fetch, then `loading`, `success` or
    /// `failure`.
    public var status = OperationStatus.idle
    /// Why the last fetch failed.
    public var error: APIError?

    /// A feed; the tests spell out the ones they expect.
    public init(comments: [Comment] = [], status: OperationStatus = .idle, error: APIError? = nil) {
        self.comments = comments
        self.status = status
        self.error = error
    }

    /// The feed of a state of the query's store.
    public init(_ state: QueryStoreOf<CommentsQuery>.State) {
        self.init(comments: state.currentValue ?? [], status: state.status, error: state.error)
    }
}
