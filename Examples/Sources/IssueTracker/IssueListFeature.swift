import Lockstep
import LockstepQuery

/// The issue list: the search as typed, and what the list's query holds for it.
public struct IssueListState: Equatable, Sendable {
    /// The search as typed.
    public var search = ""
    /// The list's query as its bridge last delivered it, with the stars set here.
    public var feed = IssueFeed()
    /// Why the last star could not be saved.
    public var errorMessage: String?

    /// An empty list.
    public init() {}
}

/// What happens to the list.
public enum IssueListAction: Equatable, Sendable {
    /// The list appeared: follow the query of the current search until the list goes.
    case task
    /// The user typed: follow the query of `search` once they stop for ``searchDebounce``.
    case searchChanged(String)
    /// The user scrolled to the bottom: fetch the next page.
    case loadNextPage
    /// The list's query reached a new state.
    case feedChanged(IssueFeed)
    /// The user tapped the star of the issue `id`.
    case starTapped(id: Int)
    /// Star the issue `id`, or remove its star.
    case setStarred(id: Int, Bool)
    /// The server refused a star.
    case starFailed(String)
}

/// How long the user must stop typing before the search starts.
public let searchDebounce: Duration = .milliseconds(300)

/// The list's reducer.
public let issueListReducer: InPlaceReducer<IssueListState, IssueListAction> = { list, action in
    switch action {
    case .searchChanged(let search):
        list.search = search
    case .feedChanged(let feed):
        // The query's pages, with the stars set here: a page cached before a star does not
        // take it back.
        let stars = Dictionary(list.feed.issues.map { ($0.id, $0.isStarred) }, uniquingKeysWith: { $1 })
        list.feed = feed
        for index in list.feed.issues.indices {
            if let isStarred = stars[list.feed.issues[index].id] { list.feed.issues[index].isStarred = isStarred }
        }
    case .setStarred(let id, let isStarred):
        guard let index = list.feed.issues.firstIndex(where: { $0.id == id }) else { return }
        list.feed.issues[index].isStarred = isStarred
        list.errorMessage = nil
    case .starFailed(let message):
        list.errorMessage = message
    case .task, .loadNextPage, .starTapped:
        break
    }
}

/// Names the bridge of the list's query: a new search replaces it.
private enum FeedID: Hashable, Sendable { case feed }

/// The list's side effects: bridging the query of the search into the state (after the debounce
/// when the search changes), fetching pages, and starring.
public func issueListMiddleware(
    list: IssueListState,
    action: IssueListAction,
    services: IssueTrackerServices,
    dispatch: Dispatcher<IssueListAction>
) async {
    switch action {
    case .task:
        await dispatch.withTaskCancellation(id: FeedID.feed, cancelInFlight: true) {
            await services.feed(for: list.search).bridge(to: dispatch) { .feedChanged(IssueFeed($0)) }
        }
    case .searchChanged(let search):
        // Each keystroke ends the bridge of the previous search, and starts the wait again.
        await dispatch.debounce(id: FeedID.feed, for: searchDebounce, clock: services.clock) {
            await services.feed(for: search).bridge(to: dispatch) { .feedChanged(IssueFeed($0)) }
        }
    case .loadNextPage:
        // The page, its retries and its error reach the state through the bridge.
        _ = try? await services.feed(for: list.search).fetchNextPage()
    case .starTapped(let id):
        guard let issue = list.feed.issues.first(where: { $0.id == id }) else { return }
        let starred = !issue.isStarred
        await dispatch.optimistically(.setStarred(id: id, starred), rollback: .setStarred(id: id, !starred)) {
            try await services.api.setStarred(starred, issue: id)
        } failure: { error in
            .starFailed("The star could not be saved: \(error).")
        }
    case .feedChanged, .setStarred, .starFailed:
        break
    }
}

/// What the list shows, written against any store of the list.
@MainActor
public final class IssueListModel {
    private let store: any StoreProtocol<IssueListState, IssueListAction>

    /// A model of the list that `store` holds.
    public init(store: some StoreProtocol<IssueListState, IssueListAction>) {
        self.store = store
    }

    /// The lines the list shows: its issues, then a footer that says what the query is doing.
    public var lines: [String] {
        let list = store.state
        var lines = list.feed.issues.map { issue in "\(issue.isStarred ? "★" : "☆") #\(issue.id)  \(issue.title)" }
        if let retryLine {
            lines.append(retryLine)
        } else if list.feed.status == .loading {
            lines.append("Loading…")
        } else if let error = list.feed.error {
            lines.append("error: \(error)")
        } else if list.feed.hasNextPage {
            lines.append("More below.")
        } else if list.feed.issues.isEmpty {
            lines.append(list.search.isEmpty ? "No issues." : "No issue matches '\(list.search)'.")
        }
        if let message = list.errorMessage {
            lines.append(message)
        }
        return lines
    }

    /// "Retrying in 2 s…" while a page fetch that failed waits for its next attempt, "Retrying
    /// (attempt 2 of 4)…" while that attempt runs, `nil` when nothing retries: read from the
    /// query's retry progress, which its bridge brings into the state.
    public var retryLine: String? {
        guard let retry = store.state.feed.retry else { return nil }
        return retry.isWaiting
            ? "Retrying in \(retry.delay.components.seconds) s…"
            : "Retrying (attempt \(retry.nextAttempt) of \(retry.retryLimit + 1))…"
    }
}
