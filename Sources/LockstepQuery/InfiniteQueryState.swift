import Foundation

/// What every infinite query state offers; ``InfiniteQueryState`` is the one conforming type.
///
/// ```swift
/// func footer<S: InfiniteQueryStateProtocol>(_ state: S) -> String {
///   state.isLoadingNextPage ? "Loading…" : state.hasNextPage ? "More" : "The end"
/// }
/// ```
public protocol InfiniteQueryStateProtocol: OperationState
where Arguments == InfiniteQueryDirection, Value == InfiniteQueryPages<PageID, PageValue> {
    /// What identifies a page.
    associatedtype PageID: Hashable & Sendable
    /// What a page holds.
    associatedtype PageValue: Sendable

    /// The pages held, first page first.
    var pages: InfiniteQueryPages<PageID, PageValue> { get }
    /// The identifier of the page after the last, or `nil` when there is none or no page yet.
    var nextPageId: PageID? { get }
    /// The identifier of the page before the first, or `nil` when there is none or no page yet.
    var previousPageId: PageID? { get }
    /// Whether a next page exists.
    var hasNextPage: Bool { get }
    /// Whether a previous page exists.
    var hasPreviousPage: Bool { get }
    /// Whether the first page of an empty list is loading.
    var isLoadingInitialPage: Bool { get }
    /// Whether a next page is loading.
    var isLoadingNextPage: Bool { get }
    /// Whether a previous page is loading.
    var isLoadingPreviousPage: Bool { get }
    /// Whether every page is being refetched.
    var isLoadingAllPages: Bool { get }
}

/// The state of an infinite query's store: its pages, in order, and what is loading.
///
/// ```swift
/// let state = client.store(for: FeedQuery()).state
/// let posts = state.pages.flatMap(\.value)
/// let showMore = state.hasNextPage && !state.isLoadingNextPage
/// ```
public struct InfiniteQueryState<PageID: Hashable & Sendable, PageValue: Sendable, Failure: Error>:
    InfiniteQueryStateProtocol
{
    public typealias Arguments = InfiniteQueryDirection
    public typealias Value = InfiniteQueryPages<PageID, PageValue>
    typealias PageIdFinder = @Sendable (InfiniteQueryPage<PageID, PageValue>, Value) -> PageID?

    /// The pages held, first page first.
    public private(set) var pages: Value = []
    /// Where the query stands: ``OperationStatus/loading`` while any page loads.
    public private(set) var status = OperationStatus.idle
    /// The latest error of a page fetch, cleared by the next success.
    public private(set) var error: Failure?
    /// How many times the pages were set, by a fetch, a yield or by hand.
    public private(set) var valueUpdateCount = 0
    /// When the pages were last set, by the client's date source.
    public private(set) var valueLastUpdatedAt: Date?
    /// How many times a page fetch failed.
    public private(set) var errorUpdateCount = 0
    /// When the last error arrived, by the client's date source.
    public private(set) var errorLastUpdatedAt: Date?
    /// The identifier of the first page.
    public let initialPageId: PageID
    /// The most pages kept, or `nil` for no limit.
    public let maxPages: Int?

    private let pageIdAfter: PageIdFinder
    private let pageIdBefore: PageIdFinder
    private var runs: [Int: InfiniteQueryDirection] = [:]

    init(
        initialPageId: PageID, maxPages: Int?, pageIdAfter: @escaping PageIdFinder,
        pageIdBefore: @escaping PageIdFinder
    ) {
        self.initialPageId = initialPageId
        self.maxPages = maxPages.map { max($0, 1) }
        self.pageIdAfter = pageIdAfter
        self.pageIdBefore = pageIdBefore
    }

    /// The pages held, never `nil`: an empty list before the first page.
    public var currentValue: Value? {
        pages
    }

    /// Whether any page is loading.
    public var isLoading: Bool {
        !runs.isEmpty
    }

    public var nextPageId: PageID? {
        pages.last.flatMap { pageIdAfter($0, pages) }
    }

    public var previousPageId: PageID? {
        pages.first.flatMap { pageIdBefore($0, pages) }
    }

    public var hasNextPage: Bool {
        nextPageId != nil
    }

    public var hasPreviousPage: Bool {
        previousPageId != nil
    }

    public var isLoadingInitialPage: Bool {
        runs.values.contains(.initialPage)
    }

    public var isLoadingNextPage: Bool {
        runs.values.contains(.nextPage)
    }

    public var isLoadingPreviousPage: Bool {
        runs.values.contains(.previousPage)
    }

    public var isLoadingAllPages: Bool {
        runs.values.contains(.allPages)
    }

    public mutating func apply(_ event: OperationRunEvent<InfiniteQueryDirection, Value, Failure>) {
        switch event {
        case .started(let run, let direction, _):
            runs[run] = direction
            status = .loading
        case .yielded(let run, .success(let fetched), let date):
            upsert(fetched, front: runs[run] == .previousPage)
            updated(at: date)
        case .yielded(_, .failure(let error), let date):
            setError(error, at: date)
        case .finished(let run, let result, let date):
            let direction = runs.removeValue(forKey: run) ?? .allPages
            switch result {
            case .success(let fetched):
                switch direction {
                case .initialPage, .allPages: pages = Array(fetched.prefix(maxPages ?? .max))
                case .nextPage: upsert(fetched, front: false)
                case .previousPage: upsert(fetched, front: true)
                }
                updated(at: date)
                error = nil
                status = runs.isEmpty ? .success : .loading
            case .failure(let error):
                setError(error, at: date)
                status = runs.isEmpty ? .failure : .loading
            }
        case .cancelled(let run, _):
            runs[run] = nil
            if runs.isEmpty { status = .cancelled }
        case .valueSet(let value, let date):
            pages = value ?? []
            updated(at: date)
        case .resultSet(.success(let value), let date):
            pages = value
            updated(at: date)
            error = nil
            if runs.isEmpty { status = .success }
        case .resultSet(.failure(let error), let date):
            setError(error, at: date)
            if runs.isEmpty { status = .failure }
        }
    }

    /// Puts `fetched` in place of the pages with the same identifiers, or at the front or the back,
    /// then drops pages from the other end past ``maxPages``.
    private mutating func upsert(_ fetched: Value, front: Bool) {
        for page in front ? fetched.reversed() : fetched {
            if let index = pages.firstIndex(where: { $0.id == page.id }) {
                pages[index] = page
            } else if front {
                pages.insert(page, at: 0)
            } else {
                pages.append(page)
            }
        }
        if let maxPages, pages.count > maxPages {
            if front {
                pages.removeLast(pages.count - maxPages)
            } else {
                pages.removeFirst(pages.count - maxPages)
            }
        }
    }

    private mutating func updated(at date: Date) {
        valueUpdateCount += 1
        valueLastUpdatedAt = date
    }

    private mutating func setError(_ error: Failure, at date: Date) {
        self.error = error
        errorUpdateCount += 1
        errorLastUpdatedAt = date
    }

    /// The run that a request in `direction` starts, or `nil` when there is no page that way.
    func plan(_ direction: InfiniteQueryDirection) -> OperationStore<Self>.RunPlan? {
        typealias Paging = InfiniteQueryPaging<PageID, PageValue>
        guard let first = pages.first, let last = pages.last else {
            return .init(
                arguments: .initialPage, key: InfiniteQueryDirection.initialPage.rawValue,
                paging: Paging(pageId: initialPageId, pages: [], request: .initialPage))
        }
        switch direction {
        case .initialPage, .allPages:
            return .init(
                arguments: .allPages, key: InfiniteQueryDirection.allPages.rawValue,
                paging: Paging(pageId: first.id, pages: pages, request: .allPages))
        case .nextPage:
            guard let id = nextPageId else { return nil }
            return .init(
                arguments: .nextPage, key: "\(InfiniteQueryDirection.nextPage.rawValue) \(id)",
                paging: Paging(pageId: id, pages: pages, request: .nextPage(after: last.id)))
        case .previousPage:
            guard let id = previousPageId else { return nil }
            return .init(
                arguments: .previousPage, key: "\(InfiniteQueryDirection.previousPage.rawValue) \(id)",
                paging: Paging(pageId: id, pages: pages, request: .previousPage(before: first.id)))
        }
    }
}
