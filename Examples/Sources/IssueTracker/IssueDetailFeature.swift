import Lockstep
import LockstepQuery

/// One issue's screen: its comments, from its comments query, and the comment being written.
public struct IssueDetailState: Equatable, Sendable {
    /// The issue shown.
    public var issue: TrackedIssue
    /// The comments: the server's, then those posted here that it does not list yet.
    public var comments: [Comment] = []
    /// Where the comments query stands: `idle` before its first fetch, then `loading`,
    /// `success` or `failure`.
    public var commentsStatus = OperationStatus.idle
    /// The comment being written.
    public var draft = ""
    /// Why the comments could not be loaded, or the last comment could not be posted.
    public var errorMessage: String?

    /// The screen of `issue`, before its comments are loaded.
    public init(issue: TrackedIssue) {
        self.issue = issue
    }
}

/// What happens to an issue's screen.
public enum IssueDetailAction: Equatable, Sendable {
    /// The screen appeared: follow the issue's comments query until the screen goes.
    case task
    /// The comments query reached a new state.
    case commentsChanged(CommentsFeed)
    /// The user edited the comment being written.
    case draftChanged(String)
    /// The user tapped Send: the comment shows at once, and goes if the server refuses it.
    case submitTapped
    /// Show `comment`, not sent yet, and clear the draft. A blank comment is refused.
    case commentAdded(Comment)
    /// Take back the comment whose local id is `id`.
    case commentRemoved(id: String)
    /// The server has the comment: its copy replaces the local one.
    case commentSent(Comment, replacing: String)
    /// The server refused a comment.
    case postFailed(String)
}

/// The screen's reducer.
public let issueDetailReducer: InPlaceReducer<IssueDetailState, IssueDetailAction> = { detail, action in
    switch action {
    case .commentsChanged(let feed):
        let fetched = Set(feed.comments.map(\.id))
        detail.comments = feed.comments + detail.comments.filter { !fetched.contains($0.id) }
        detail.commentsStatus = feed.status
        detail.errorMessage = feed.error.map { "The comments could not be loaded: \($0)." }
    case .draftChanged(let draft):
        detail.draft = draft
    case .commentAdded(let comment):
        guard !comment.text.allSatisfy(\.isWhitespace) else { return }
        detail.comments.append(comment)
        detail.draft = ""
        detail.errorMessage = nil
    case .commentRemoved(let id):
        detail.comments.removeAll { $0.id == id }
    case .commentSent(let comment, let id):
        guard let index = detail.comments.firstIndex(where: { $0.id == id }) else { return }
        detail.comments[index] = comment
    case .postFailed(let message):
        detail.errorMessage = message
    case .task, .submitTapped:
        break
    }
}

/// The screen's side effects: the bridge of its comments query, which the screen owns (lifted
/// with `ifLetMiddleware`, it ends when the screen is dismissed), and posting a comment.
public func issueDetailMiddleware(
    detail: IssueDetailState,
    action: IssueDetailAction,
    services: IssueTrackerServices,
    dispatch: Dispatcher<IssueDetailAction>
) async {
    switch action {
    case .task:
        await services.queries.store(for: CommentsQuery(issueID: detail.issue.id))
            .bridge(to: dispatch) { .commentsChanged(CommentsFeed($0)) }
    case .submitTapped:
        let pending = Comment(id: services.newCommentID(), text: detail.draft, isSent: false)
        await dispatch.optimistically(.commentAdded(pending), rollback: .commentRemoved(id: pending.id)) {
            try await services.api.post(pending, on: detail.issue.id)
        } success: { sent in
            .commentSent(sent, replacing: pending.id)
        } failure: { error in
            .postFailed("The comment could not be posted: \(error).")
        }
    case .commentsChanged, .draftChanged, .commentAdded, .commentRemoved, .commentSent, .postFailed:
        break
    }
}

/// What the screen shows, written against any store of the screen.
@MainActor
public final class IssueDetailModel {
    private let store: any StoreProtocol<IssueDetailState, IssueDetailAction>

    /// A model of the screen that `store` holds.
    public init(store: some StoreProtocol<IssueDetailState, IssueDetailAction>) {
        self.store = store
    }

    /// The lines the screen shows: the issue, its comments, and what is going on.
    public var lines: [String] {
        let detail = store.state
        var lines = ["#\(detail.issue.id)  \(detail.issue.title)"]
        lines += detail.comments.map { comment in "  - \(comment.text)\(comment.isSent ? "" : "  (sending…)")" }
        if detail.commentsStatus == .loading {
            lines.append("  Loading comments…")
        } else if detail.comments.isEmpty {
            lines.append("  No comments.")
        }
        if let message = detail.errorMessage { lines.append(message) }
        return lines
    }
}
