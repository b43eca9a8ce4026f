import Synchronization

/// An issue as the tracker lists it.
public struct TrackedIssue: Equatable, Sendable, Identifiable {
    /// The issue's number.
    public var id: Int
    /// The issue's title.
    public var title: String
    /// Whether the user starred the issue.
    public var isStarred: Bool

    /// An issue.
    public init(id: Int, title: String, isStarred: Bool = false) {
        self.id = id
        self.title = title
        self.isStarred = isStarred
    }
}

/// A comment on an issue.
public struct Comment: Equatable, Sendable, Identifiable {
    /// The server's id, or a local one until the server has the comment.
    public var id: String
    /// What the comment says.
    public var text: String
    /// Whether the server has the comment; `false` while it is on its way.
    public var isSent: Bool

    /// A comment.
    public init(id: String, text: String, isSent: Bool) {
        self.id = id
        self.text = text
        self.isSent = isSent
    }
}

/// One page of the issue list.
public struct IssuePage: Equatable, Sendable {
    /// The page's issues.
    public var issues: [TrackedIssue]
    /// Whether another page follows.
    public var hasMore: Bool

    /// A page.
    public init(issues: [TrackedIssue], hasMore: Bool) {
        self.issues = issues
        self.hasMore = hasMore
    }
}

/// Why a call to the issue server failed.
public enum APIError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server could not be reached.
    case offline
    /// The server has no issue with this number.
    case unknownIssue(Int)

    public var description: String {
        switch self {
        case .offline: "the server cannot be reached"
        case .unknownIssue(let id): "there is no issue #\(id)"
        }
    }
}

/// A call the server received, for tests to check.
public enum APIRequest: Equatable, Sendable {
    /// A page of the issues whose titles contain `search`.
    case issues(search: String, page: Int)
    /// The comments of an issue.
    case comments(issue: Int)
    /// A new comment on an issue.
    case post(issue: Int)
    /// A star set or removed.
    case star(issue: Int, Bool)
}

/// The issue server, in memory, so that the example runs offline: ``failNext(_:)`` makes it
/// fail like a flaky network, and a test can hold a call on its way. A real app would put its
/// HTTP client here.
public final class FakeIssueAPI: Sendable {
    private struct Storage {
        var issues: [TrackedIssue]
        var comments: [Int: [Comment]]
        var failures = 0
        var requests: [APIRequest] = []
        var nextCommentID = 1
    }

    private let storage: Mutex<Storage>
    private let onRequest: @Sendable (APIRequest) async -> Void
    /// How many issues a page holds.
    public let pageSize: Int

    /// A server holding `issues`, and `comments` by issue number.
    ///
    /// - Parameters:
    ///   - issues: The issues, in the list's order.
    ///   - comments: The comments, by issue number.
    ///   - pageSize: How many issues a page holds.
    ///   - onRequest: Called as each call arrives, before it is answered: a test holds a call
    ///     there at a `Gate`, to act while it is on its way.
    public init(
        issues: [TrackedIssue] = demoIssues,
        comments: [Int: [Comment]] = demoComments,
        pageSize: Int = 3,
        onRequest: @escaping @Sendable (APIRequest) async -> Void = { _ in }
    ) {
        storage = Mutex(Storage(issues: issues, comments: comments))
        self.pageSize = pageSize
        self.onRequest = onRequest
    }

    /// Makes the next `count` calls fail with ``APIError/offline``.
    public func failNext(_ count: Int) {
        storage.withLock { $0.failures = count }
    }

    /// The calls the server received, in order, failed ones included.
    public var requests: [APIRequest] {
        storage.withLock { $0.requests }
    }

    /// The page `page` (from 0) of the issues whose titles contain `search`, all of them for an
    /// empty search.
    public func issues(matching search: String, page: Int) async throws(APIError) -> IssuePage {
        try await call(.issues(search: search, page: page)) { storage in
            let found = storage.issues.filter { search.isEmpty || $0.title.localizedCaseInsensitiveContains(search) }
            let start = min(page * pageSize, found.count)
            let end = min(start + pageSize, found.count)
            return IssuePage(issues: Array(found[start..<end]), hasMore: end < found.count)
        }
    }

    /// The comments of the issue `id`, oldest first.
    public func comments(on id: Int) async throws(APIError) -> [Comment] {
        try await call(.comments(issue: id)) { storage in storage.comments[id] ?? [] }
    }

    /// Adds `comment` to the issue `id`, and returns the server's copy, with the server's id.
    public func post(_ comment: Comment, on id: Int) async throws(APIError) -> Comment {
        try await call(.post(issue: id)) { storage throws(APIError) in
            guard storage.issues.contains(where: { $0.id == id }) else { throw .unknownIssue(id) }
            let saved = Comment(id: "c\(storage.nextCommentID)", text: comment.text, isSent: true)
            storage.nextCommentID += 1
            storage.comments[id, default: []].append(saved)
            return saved
        }
    }

    /// Stars the issue `id`, or removes its star.
    public func setStarred(_ isStarred: Bool, issue id: Int) async throws(APIError) {
        try await call(.star(issue: id, isStarred)) { storage throws(APIError) in
            guard let index = storage.issues.firstIndex(where: { $0.id == id }) else { throw .unknownIssue(id) }
            storage.issues[index].isStarred = isStarred
        }
    }

    /// Records `request`, fails it if a failure is due, or runs `body` on the storage.
    private func call<Value>(
        _ request: APIRequest, _ body: (inout Storage) throws(APIError) -> Value
    ) async throws(APIError) -> Value {
        await onRequest(request)
        return try storage.withLock { storage throws(APIError) in
            storage.requests.append(request)
            if storage.failures > 0 {
                storage.failures -= 1
                throw .offline
            }
            return try body(&storage)
        }
    }
}

/// The issues a new ``FakeIssueAPI`` holds.
public let demoIssues: [TrackedIssue] = [
    TrackedIssue(id: 1, title: "Crash on launch"),
    TrackedIssue(id: 2, title: "Typo in settings"),
    TrackedIssue(id: 3, title: "Crash when offline"),
    TrackedIssue(id: 4, title: "Dark mode colors"),
    TrackedIssue(id: 5, title: "Slow search"),
    TrackedIssue(id: 6, title: "Export to CSV"),
    TrackedIssue(id: 7, title: "Crash on rotate"),
]

/// The comments a new ``FakeIssueAPI`` holds, by issue number.
public let demoComments: [Int: [Comment]] = [
    1: [Comment(id: "c-a", text: "Seen on 2.3 too.", isSent: true)],
]
