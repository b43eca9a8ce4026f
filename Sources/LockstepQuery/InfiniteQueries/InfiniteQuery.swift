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
