import Lockstep
import LockstepQuery

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
    ///
    /// A bridge's first state is the store's current one: for a title not fetched yet, the
    /// initial state (no details, not loading, no error), just before the fetch that subscribing
    /// starts. Its status is `BookDetailsStatus()`, which the features' reducers skip
    /// (see ``isBlank``).
    public init(_ state: QueryState<BookDetails, any Error>) {
        self.init(
            details: state.currentValue,
            isLoading: state.isLoading,
            error: state.error.map { $0 as? CatalogError ?? .unavailable })
    }

    /// Whether the status has nothing to show: no details, no fetch in flight, no error. The
    /// state of a query not fetched yet, that a bridge delivers first.
    public var isBlank: Bool { self == BookDetailsStatus() }
}
