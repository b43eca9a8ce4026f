import Lockstep
import LockstepQuery
import Synchronization

/// Where a run of ``BookDetailsQuery`` finds the catalog: the client's default context, which
/// ``ReadingListServices`` fills in. Its default fails the test that runs the query without
/// setting it.
public enum CatalogKey: OperationContext.Key {
    public static var defaultValue: any Catalog { UnimplementedCatalog() }
}

/// A catalog whose every call fails the test that makes it (IssueReporting's `unimplemented`),
/// and answers as a catalog that is down.
public struct UnimplementedCatalog: Catalog {
    /// The unimplemented catalog.
    public init() {}

    public func search(_ query: String) async throws(CatalogError) -> [String] {
        let search: @Sendable (String) -> Void = unimplemented("Catalog.search")
        search(query)
        throw .unavailable
    }

    public func details(of title: String) async throws(CatalogError) -> BookDetails {
        let details: @Sendable (String) -> Void = unimplemented("Catalog.details")
        details(title)
        throw .unavailable
    }
}

/// The details of one book, fetched from the catalog and cached by the app's `OperationClient`,
/// keyed by title: every row and editor that asks for the same title shares one fetch.
public struct BookDetailsQuery: QueryRequest {
    /// The title whose details to fetch.
    public let title: String

    /// The query of `title`'s details.
    public init(title: String) {
        self.title = title
    }

    public var path: OperationPath { ["book-details", title] }

    public func fetch(
        isolation: isolated (any Actor)?,
        in context: OperationContext,
        with continuation: OperationContinuation<BookDetails, any Error>
    ) async throws -> BookDetails {
        try await context[CatalogKey.self].details(of: title)
    }
}

/// What a screen shows of a ``BookDetailsQuery``: its value, whether it is loading, its error.
public struct BookDetailsStatus: Equatable, Sendable {
    /// The details, once loaded.
    public var details: BookDetails?
    /// Whether a fetch is in flight.
    public var isLoading: Bool
    /// Why the last fetch failed.
    public var error: CatalogError?

    /// Creates a status.
    public init(details: BookDetails? = nil, isLoading: Bool = false, error: CatalogError? = nil) {
        self.details = details
        self.isLoading = isLoading
        self.error = error
    }

    /// The status of a state of the query's store.
    public init(_ state: QueryState<BookDetails, any Error>) {
        self.init(
            details: state.currentValue,
            isLoading: state.isLoading,
            error: state.error.map { $0 as? CatalogError ?? .unavailable })
    }
}

/// Follows the details query of `title` through one load: subscribes to the query's store,
/// which fetches the details unless a fetch is already in flight (a row or the editor asking
/// for the same title shares it), and hands `update` each state the store reaches, in order,
/// until that fetch has ended. Cancelling the calling task unsubscribes at once: a removed row
/// stops hearing its query, and a fetch nobody else waits for is cancelled.
public func followDetails(
    of title: String,
    in queries: OperationClient,
    update: (BookDetailsStatus) async -> Void
) async {
    let details = queries.store(for: BookDetailsQuery(title: title))
    let (statuses, continuation) = AsyncStream.makeStream(of: BookDetailsStatus.self)
    let runEnded = Mutex(false)
    let subscription = details.subscribe(
        with: QueryEventHandler(
            onStateChanged: { state, _ in
                continuation.yield(BookDetailsStatus(state))
                // The store reports a run's end, then the state it ended in.
                if runEnded.withLock({ $0 }) { continuation.finish() }
            },
            onRunEnded: { _ in runEnded.withLock { $0 = true } }
        ))
    defer { subscription.cancel() }
    if !details.state.isLoading {
        // Nothing to wait for: the cached value or error is the answer.
        continuation.yield(BookDetailsStatus(details.state))
        continuation.finish()
    }
    var last: BookDetailsStatus?
    for await status in statuses {
        guard !Task.isCancelled else { return }
        // The state before a first fetch starts has nothing to show.
        if status == BookDetailsStatus() || status == last { continue }
        last = status
        await update(status)
    }
}
