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
