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

    /// The status, error and update counts, kept as a query keeps them: its value is the pages.
    private var query = QueryState<Value, Failure>(initialValue: [])
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

    /// The pages held, first page first.
    public var pages: Value {
        query.currentValue ?? []
    }

    /// Where the query stands: ``OperationStatus/loading`` while any page loads.
    public var status: OperationStatus {
        query.status
    }

    /// The latest error of a page fetch, cleared by the next success.
    public var error: Failure? {
        query.error
    }

    /// How many times the pages were set, by a fetch, a yield or by hand.
    public var valueUpdateCount: Int {
        query.valueUpdateCount
    }

    /// When the pages were last set, by the client's date source.
    public var valueLastUpdatedAt: Date? {
        query.valueLastUpdatedAt
    }

    /// How many times a page fetch failed.
    public var errorUpdateCount: Int {
        query.errorUpdateCount
    }

    /// When the last error arrived, by the client's date source.
    public var errorLastUpdatedAt: Date? {
        query.errorLastUpdatedAt
    }

    /// The retry the page fetch in flight is making: set when an attempt fails and a retry is
    /// scheduled, cleared when that fetch succeeds, fails for good or is cancelled. With several
    /// page fetches in flight, the one that scheduled a retry last.
    ///
    /// ```swift
    /// if let retry = store.state.retry, retry.isWaiting {
    ///   footer = "Couldn't load more; retrying in \(retry.delay)…"
    /// }
    /// ```
    public var retry: OperationRetry<Failure>? {
        query.retry
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

    /// Applies a run's step as a query state does (status, error, update counts), with the
    /// fetched pages merged into those held, by the direction of the run that fetched them.
    public mutating func apply(_ event: OperationRunEvent<InfiniteQueryDirection, Value, Failure>) {
        switch event {
        case .started(let run, let direction, let date):
            runs[run] = direction
            query.apply(.started(run: run, arguments: (), date: date))
        case .yielded(let run, let result, let date):
            let front = runs[run] == .previousPage
            query.apply(.yielded(run: run, result: result.map { merged($0, front: front) }, date: date))
        case .finished(let run, let result, let date):
            let direction = runs.removeValue(forKey: run) ?? .allPages
            let result = result.map { fetched in
                switch direction {
                case .initialPage, .allPages: Array(fetched.prefix(maxPages ?? .max))
                case .nextPage: merged(fetched, front: false)
                case .previousPage: merged(fetched, front: true)
                }
            }
            query.apply(.finished(run: run, result: result, date: date))
        case .cancelled(let run, let date):
            runs[run] = nil
            query.apply(.cancelled(run: run, date: date))
        case .valueSet(let value, let date):
            query.apply(.valueSet(value ?? [], date: date))
        case .resultSet(let result, let date):
            query.apply(.resultSet(result, date: date))
        case .retryScheduled(let run, let retry):
            query.apply(.retryScheduled(run: run, retry: retry))
        case .retryStarted(let run, let date):
            query.apply(.retryStarted(run: run, date: date))
        }
    }

    /// The pages held with `fetched` in place of the pages with the same identifiers, or at the
    /// front or the back, less the pages past ``maxPages`` at the other end.
    private func merged(_ fetched: Value, front: Bool) -> Value {
        var pages = pages
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
        return pages
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
