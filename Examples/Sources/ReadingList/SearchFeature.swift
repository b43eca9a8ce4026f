import Lockstep

/// The search of the catalog: the query as typed, and the titles found for it.
public struct SearchState: Equatable, Sendable {
    /// The query as typed.
    public var query = ""
    /// The titles the catalog found for ``query``.
    public var results: [String] = []
    /// Whether a search is waiting for the user to stop typing, or for the catalog.
    public var isSearching = false
    /// Why the last search failed.
    public var errorMessage: String?

    /// An empty search.
    public init() {}
}

/// What happens to the search.
public enum SearchAction: Equatable, Sendable {
    /// The user typed: search once they stop for ``searchDebounce``.
    case queryChanged(String)
    /// The catalog answered the search for `query`.
    case searchFinished(query: String, Result<[String], CatalogError>)
}

/// How long the user must stop typing before the search starts.
public let searchDebounce: Duration = .milliseconds(300)

/// The search's reducer.
public let searchReducer: InPlaceReducer<SearchState, SearchAction> = { search, action in
    switch action {
    case .queryChanged(let query):
        search.query = query
        search.isSearching = !query.isEmpty
        search.errorMessage = nil
        if query.isEmpty { search.results = [] }
    case .searchFinished(let query, _) where query != search.query:
        // The query changed while the catalog answered: a stale answer is dropped.
        break
    case .searchFinished(_, .success(let results)):
        search.isSearching = false
        search.results = results
    case .searchFinished(_, .failure(let error)):
        search.isSearching = false
        search.errorMessage = error.description
    }
}

/// Names the debounced search.
private enum SearchID: Hashable, Sendable { case search }

/// The search's side effect: once the query has not changed for ``searchDebounce`` on the
/// services' clock, ask the catalog; each keystroke cancels the search before it. An answer
/// that arrives after the query changed anyway is dropped by the reducer.
public func searchMiddleware(
    search: SearchState,
    action: SearchAction,
    services: ReadingListServices,
    dispatch: Dispatcher<SearchAction>
) async {
    guard case .queryChanged(let query) = action, !query.isEmpty else { return }
    await dispatch.debounce(id: SearchID.search, for: searchDebounce, clock: services.clock) {
        await dispatch({ .searchFinished(query: query, $0) }) { () async throws(CatalogError) in
            try await services.catalog.search(query)
        }
    }
}

/// What the search shows, written against any store of the search.
@MainActor
public final class SearchModel {
    private let store: any StoreProtocol<SearchState, SearchAction>

    /// A model of the search that `store` holds.
    public init(store: some StoreProtocol<SearchState, SearchAction>) {
        self.store = store
    }

    /// The user typed `query`. Returns once the search it started is finished or superseded.
    public func queryChanged(_ query: String) async {
        await store.dispatch(.queryChanged(query))
    }

    /// The lines the search shows, marking the titles already on the list with `onList`.
    public func lines(onList: Set<String>) -> [String] {
        let search = store.state
        if let error = search.errorMessage { return ["error: \(error)"] }
        if search.isSearching { return ["Searching…"] }
        if search.results.isEmpty { return ["Nothing in the catalog matches '\(search.query)'."] }
        return search.results.map { title in (onList.contains(title) ? "✓ " : "  ") + title }
    }
}

/// The search as one feature: its reducer and its debounced search.
public let searchFeature = Feature<SearchState, SearchAction, ReadingListServices>(reducer: searchReducer) {
    searchMiddleware
}
