import Foundation

/// The remote book catalog: what the reading list searches, and where a book's details come
/// from.
public protocol Catalog: Sendable {
    /// The titles of the catalog's books whose title or author contains `query`, ignoring case.
    func search(_ query: String) async throws(CatalogError) -> [String]
    /// The details of the book titled `title`.
    func details(of title: String) async throws(CatalogError) -> BookDetails
}

/// A request to the catalog, as a ``FakeCatalogServer`` hands it to its `onRequest` hook.
public enum CatalogRequest: Equatable, Sendable {
    /// A search.
    case search(String)
    /// The details of a title.
    case details(String)
}

/// A catalog server faked in memory: each call takes `latency` on an injected clock, so a test
/// that passes a manual clock decides when the answer arrives, and none ever sleeps.
///
/// Its `onRequest` hook runs before each answer; a test makes it wait on a gate to hold a call
/// in flight, or records the requests. A call whose task is cancelled while it waits throws
/// ``CatalogError/unavailable``.
public struct FakeCatalogServer: Catalog {
    /// A book the catalog knows.
    public struct Entry: Equatable, Sendable {
        /// The title.
        public var title: String
        /// The details the catalog gives.
        public var details: BookDetails

        /// Creates an entry.
        public init(title: String, author: String, pages: Int) {
            self.title = title
            self.details = BookDetails(author: author, pages: pages)
        }
    }

    /// A few classics, the catalog the command uses.
    public static let classics: [Entry] = [
        Entry(title: "Dune", author: "Frank Herbert", pages: 412),
        Entry(title: "Dune Messiah", author: "Frank Herbert", pages: 256),
        Entry(title: "The Left Hand of Darkness", author: "Ursula K. Le Guin", pages: 304),
        Entry(title: "The Dispossessed", author: "Ursula K. Le Guin", pages: 387),
        Entry(title: "Middlemarch", author: "George Eliot", pages: 880),
        Entry(title: "Moby-Dick", author: "Herman Melville", pages: 635),
    ]

    private let entries: [Entry]
    private let clock: any Clock<Duration>
    private let latency: Duration
    private let onRequest: @Sendable (CatalogRequest) async -> Void

    /// Creates a server.
    ///
    /// - Parameters:
    ///   - entries: The books the catalog knows.
    ///   - clock: The clock each call waits on.
    ///   - latency: How long each call takes on `clock`.
    ///   - onRequest: Runs before each answer, after the latency.
    public init(
        entries: [Entry] = FakeCatalogServer.classics,
        clock: any Clock<Duration>,
        latency: Duration = .zero,
        onRequest: @escaping @Sendable (CatalogRequest) async -> Void = { _ in }
    ) {
        self.entries = entries
        self.clock = clock
        self.latency = latency
        self.onRequest = onRequest
    }

    /// The titles whose title or author contains `query`, after the latency.
    public func search(_ query: String) async throws(CatalogError) -> [String] {
        try await respond(to: .search(query))
        return entries
            .filter { $0.title.localizedCaseInsensitiveContains(query) || $0.details.author.localizedCaseInsensitiveContains(query) }
            .map(\.title)
    }

    /// The details of the entry titled `title`, after the latency.
    public func details(of title: String) async throws(CatalogError) -> BookDetails {
        try await respond(to: .details(title))
        guard let entry = entries.first(where: { $0.title.caseInsensitiveCompare(title) == .orderedSame }) else {
            throw .notFound(title)
        }
        return entry.details
    }

    private func respond(to request: CatalogRequest) async throws(CatalogError) {
        do {
            try await clock.sleep(for: latency)
        } catch {
            throw .unavailable
        }
        await onRequest(request)
        if Task.isCancelled { throw .unavailable }
    }
}
