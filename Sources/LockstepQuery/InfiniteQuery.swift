import Foundation

/// One page of an infinite query: the page's identifier and what was fetched for it.
///
/// ```swift
/// let page = InfiniteQueryPage(id: 2, value: ["post 21", "post 22"])
/// ```
public struct InfiniteQueryPage<ID: Hashable & Sendable, Value: Sendable>: Sendable, Identifiable {
    /// The page's identifier: the parameter it was fetched with.
    public var id: ID
    /// What the page holds.
    public var value: Value

    /// Creates a page.
    ///
    /// ```swift
    /// let page = InfiniteQueryPage(id: "cursor-1", value: [post])
    /// ```
    public init(id: ID, value: Value) {
        self.id = id
        self.value = value
    }
}

extension InfiniteQueryPage: Equatable where Value: Equatable {}
extension InfiniteQueryPage: Hashable where Value: Hashable {}

/// The pages an infinite query holds, first page first.
///
/// ```swift
/// let posts = pages.flatMap(\.value)
/// ```
public typealias InfiniteQueryPages<ID: Hashable & Sendable, Value: Sendable> = [InfiniteQueryPage<ID, Value>]

/// Which page or pages a run of an infinite query fetches; the arguments of its store's runs.
///
/// ```swift
/// if store.state.isLoadingNextPage { print("loading", InfiniteQueryDirection.nextPage) }
/// ```
public enum InfiniteQueryDirection: String, Sendable, Hashable {
    /// The first page, when the store holds none.
    case initialPage
    /// The page after the last one.
    case nextPage
    /// The page before the first one.
    case previousPage
    /// Every page held, refetched in order from the first.
    case allPages
}

/// What a page fetch knows: which page to fetch, the pages held, and why.
///
/// ```swift
/// func fetchPage(
///   isolation: isolated (any Actor)?,
///   using paging: InfiniteQueryPaging<Int, [Post]>,
///   in context: OperationContext,
///   with continuation: OperationContinuation<[Post], any Error>
/// ) async throws -> [Post] {
///   try await api.posts(page: paging.pageId)
/// }
/// ```
public struct InfiniteQueryPaging<PageID: Hashable & Sendable, PageValue: Sendable>: Sendable {
    /// Why the page is asked for, with the page it follows or precedes.
    ///
    /// ```swift
    /// // In fetchPage(isolation:using:in:with:):
    /// switch paging.request {
    /// case .initialPage, .nextPage, .previousPage:
    ///   return try await api.posts(page: paging.pageId)
    /// case .allPages:  // a refetch; paging.pages holds the pages refetched so far
    ///   return try await api.posts(page: paging.pageId, bypassingCache: true)
    /// }
    /// ```
    public enum Request: Sendable, Hashable {
        /// The first page of an empty list.
        case initialPage
        /// The page after the page with this identifier.
        case nextPage(after: PageID)
        /// The page before the page with this identifier.
        case previousPage(before: PageID)
        /// One page of a refetch of every page, in order.
        case allPages
    }

    /// The identifier of the page to fetch, or of the page a page identifier is asked about.
    public let pageId: PageID
    /// The pages held: the store's pages for a single page, those refetched so far during a
    /// refetch of every page.
    public let pages: InfiniteQueryPages<PageID, PageValue>
    /// Why the page is asked for.
    public let request: Request

    /// Creates a paging, as a test of a query's ``InfiniteQueryRequest/fetchPage(isolation:using:in:with:)`` needs.
    ///
    /// ```swift
    /// let paging = InfiniteQueryPaging<Int, [Post]>(pageId: 0, pages: [], request: .initialPage)
    /// ```
    public init(pageId: PageID, pages: InfiniteQueryPages<PageID, PageValue>, request: Request) {
        self.pageId = pageId
        self.pages = pages
        self.request = request
    }
}

/// An infinite query: a list fetched a page at a time, each page keyed by a page identifier
/// (a page number, a cursor, a date).
///
/// ```swift
/// struct FeedQuery: InfiniteQueryRequest {
///   let initialPageId = 0
///
///   func pageId(
///     after page: InfiniteQueryPage<Int, [Post]>,
///     using paging: InfiniteQueryPaging<Int, [Post]>,
///     in context: OperationContext
///   ) -> Int? {
///     page.value.isEmpty ? nil : page.id + 1
///   }
///
///   func fetchPage(
///     isolation: isolated (any Actor)?,
///     using paging: InfiniteQueryPaging<Int, [Post]>,
///     in context: OperationContext,
///     with continuation: OperationContinuation<[Post], any Error>
///   ) async throws -> [Post] {
///     try await api.posts(page: paging.pageId)
///   }
/// }
///
/// let feed = client.store(for: FeedQuery())
/// try await feed.fetchNextPage()   // page 0
/// try await feed.fetchNextPage()   // page 1
/// ```
///
/// The store keeps the pages in order in ``InfiniteQueryState/pages``. Each page fetch is a run
/// of its own: it retries on its own, and a failed page leaves the other pages as they are.
/// A first subscriber, an invalidation or a refetch trigger refetches every page held, in order.
public protocol InfiniteQueryRequest<PageID, PageValue, Failure>: OperationRequest {
    /// What identifies a page.
    associatedtype PageID: Hashable & Sendable
    /// What a page holds.
    associatedtype PageValue: Sendable
    /// The error a page fetch throws.
    associatedtype Failure: Error = any Error

    /// The identifier of the first page.
    var initialPageId: PageID { get }

    /// The most pages the store keeps, or `nil` (the default) for no limit. Fetching a next page
    /// past the limit drops the first page; fetching a previous page drops the last.
    var maxPages: Int? { get }

    /// When the pages need fetching again. Defaults to ``Staleness/immediately``.
    var staleness: Staleness<InfiniteQueryState<PageID, PageValue, Failure>> { get }

    /// The identifier of the page after `page`, the last page held, or `nil` if it is the last
    /// page there is.
    func pageId(
        after page: InfiniteQueryPage<PageID, PageValue>,
        using paging: InfiniteQueryPaging<PageID, PageValue>,
        in context: OperationContext
    ) -> PageID?

    /// The identifier of the page before `page`, the first page held, or `nil` if there is none.
    /// Defaults to `nil`: the list only grows forward.
    func pageId(
        before page: InfiniteQueryPage<PageID, PageValue>,
        using paging: InfiniteQueryPaging<PageID, PageValue>,
        in context: OperationContext
    ) -> PageID?

    /// Fetches the page `paging.pageId`.
    ///
    /// Throwing fails this page alone: the pages already held stay, and the store's
    /// ``InfiniteQueryState/error`` says why.
    func fetchPage(
        isolation: isolated (any Actor)?,
        using paging: InfiniteQueryPaging<PageID, PageValue>,
        in context: OperationContext,
        with continuation: OperationContinuation<PageValue, Failure>
    ) async throws(Failure) -> PageValue
}

extension InfiniteQueryRequest {
    public var maxPages: Int? {
        nil
    }

    public var staleness: Staleness<InfiniteQueryState<PageID, PageValue, Failure>> {
        .immediately
    }

    public func pageId(
        before page: InfiniteQueryPage<PageID, PageValue>,
        using paging: InfiniteQueryPaging<PageID, PageValue>,
        in context: OperationContext
    ) -> PageID? {
        nil
    }
}

extension ModifiedOperation: InfiniteQueryRequest where Base: InfiniteQueryRequest {
    public typealias PageID = Base.PageID
    public typealias PageValue = Base.PageValue

    public var initialPageId: Base.PageID { base.initialPageId }
    public var maxPages: Int? { base.maxPages }
    public var staleness: Staleness<InfiniteQueryState<Base.PageID, Base.PageValue, Base.Failure>> {
        base.staleness
    }

    public func pageId(
        after page: InfiniteQueryPage<Base.PageID, Base.PageValue>,
        using paging: InfiniteQueryPaging<Base.PageID, Base.PageValue>,
        in context: OperationContext
    ) -> Base.PageID? {
        base.pageId(after: page, using: paging, in: context)
    }

    public func pageId(
        before page: InfiniteQueryPage<Base.PageID, Base.PageValue>,
        using paging: InfiniteQueryPaging<Base.PageID, Base.PageValue>,
        in context: OperationContext
    ) -> Base.PageID? {
        base.pageId(before: page, using: paging, in: context)
    }

    public func fetchPage(
        isolation: isolated (any Actor)?,
        using paging: InfiniteQueryPaging<Base.PageID, Base.PageValue>,
        in context: OperationContext,
        with continuation: OperationContinuation<Base.PageValue, Base.Failure>
    ) async throws(Base.Failure) -> Base.PageValue {
        try await base.fetchPage(isolation: isolation, using: paging, in: context, with: continuation)
    }
}

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

// MARK: - Store

extension OperationStore where State: InfiniteQueryStateProtocol {
    /// Fetches the page after the last one (the first page when the store holds none), joining a
    /// fetch of that page already in flight.
    ///
    /// ```swift
    /// if let page = try await feed.fetchNextPage() { print("got page", page.id) }
    /// ```
    ///
    /// - Returns: The page fetched, or `nil` when there is no next page: then nothing is fetched
    ///   and the state does not change.
    @discardableResult
    public func fetchNextPage() async throws -> InfiniteQueryPage<State.PageID, State.PageValue>? {
        try await runPaged(.nextPage)?.last
    }

    /// Fetches the page before the first one (the first page when the store holds none), joining
    /// a fetch of that page already in flight.
    ///
    /// ```swift
    /// try await feed.fetchPreviousPage()
    /// ```
    ///
    /// - Returns: The page fetched, or `nil` when there is no previous page: then nothing is
    ///   fetched and the state does not change.
    @discardableResult
    public func fetchPreviousPage() async throws -> InfiniteQueryPage<State.PageID, State.PageValue>? {
        try await runPaged(.previousPage)?.first
    }

    /// Refetches every page held, in order from the first, each page's identifier computed from
    /// the page refetched before it; fetches the first page when the store holds none.
    ///
    /// ```swift
    /// let pages = try await feed.fetchAllPages()
    /// ```
    ///
    /// - Returns: The pages refetched, which replace the store's pages.
    @discardableResult
    public func fetchAllPages() async throws -> InfiniteQueryPages<State.PageID, State.PageValue> {
        try await runPaged(.allPages) ?? []
    }

    /// Refetches every page, as ``fetchAllPages()`` does.
    ///
    /// ```swift
    /// try await feed.fetch()
    /// ```
    @discardableResult
    public func fetch() async throws -> InfiniteQueryPages<State.PageID, State.PageValue> {
        try await fetchAllPages()
    }
}

// MARK: - Client

extension OperationClient {
    /// The store of an infinite query: the same store for every equal query, made on first use.
    ///
    /// ```swift
    /// let feed = client.store(for: FeedQuery())
    /// try await feed.fetchNextPage()
    /// ```
    ///
    /// Bad keys are handled as ``store(for:)-(Query)`` handles them.
    public func store<InfiniteQuery: InfiniteQueryRequest>(
        for query: InfiniteQuery
    ) -> OperationStore<InfiniteQueryState<InfiniteQuery.PageID, InfiniteQuery.PageValue, InfiniteQuery.Failure>> {
        typealias State = InfiniteQueryState<InfiniteQuery.PageID, InfiniteQuery.PageValue, InfiniteQuery.Failure>
        typealias Paging = InfiniteQueryPaging<InfiniteQuery.PageID, InfiniteQuery.PageValue>
        var pagingContext = defaultContext
        pagingContext.client = self
        query.setup(context: &pagingContext)
        let context = pagingContext
        let initialState = State(
            initialPageId: query.initialPageId,
            maxPages: query.maxPages,
            pageIdAfter: { page, pages in
                query.pageId(
                    after: page, using: Paging(pageId: page.id, pages: pages, request: .nextPage(after: page.id)),
                    in: context)
            },
            pageIdBefore: { page, pages in
                query.pageId(
                    before: page,
                    using: Paging(pageId: page.id, pages: pages, request: .previousPage(before: page.id)),
                    in: context)
            })
        let behavior = OperationStore<State>.QueryBehavior(
            arguments: .allPages, staleness: query.staleness, plan: { state, direction in state.plan(direction) })
        return store(for: query, path: query.path, initialState: initialState, query: behavior) {
            _, context, continuation in
            guard let paging = context.paging as? Paging else { return [] }
            return try await Self.fetchPages(of: query, paging: paging, context: context, continuation: continuation)
        }
    }

    private static func fetchPages<Query: InfiniteQueryRequest>(
        of query: Query,
        paging: InfiniteQueryPaging<Query.PageID, Query.PageValue>,
        context: OperationContext,
        continuation: OperationContinuation<InfiniteQueryPages<Query.PageID, Query.PageValue>, Query.Failure>
    ) async throws -> InfiniteQueryPages<Query.PageID, Query.PageValue> {
        typealias Page = InfiniteQueryPage<Query.PageID, Query.PageValue>
        typealias Paging = InfiniteQueryPaging<Query.PageID, Query.PageValue>
        func fetch(_ paging: Paging) async throws -> Page {
            let id = paging.pageId
            let pageContinuation = OperationContinuation<Query.PageValue, Query.Failure> { result in
                switch result {
                case .success(let value): continuation.yield([Page(id: id, value: value)])
                case .failure(let error): continuation.yield(error: error)
                }
            }
            let value = try await query.fetchPage(
                isolation: nil, using: paging, in: context, with: pageContinuation)
            return Page(id: id, value: value)
        }
        guard paging.request == .allPages else {
            return [try await fetch(paging)]
        }
        var fetched: [Page] = []
        var id = paging.pageId
        while true {
            let page = try await fetch(Paging(pageId: id, pages: fetched, request: .allPages))
            fetched.append(page)
            guard fetched.count < paging.pages.count,
                let next = query.pageId(
                    after: page, using: Paging(pageId: page.id, pages: fetched, request: .nextPage(after: page.id)),
                    in: context)
            else { return fetched }
            id = next
        }
    }
}
