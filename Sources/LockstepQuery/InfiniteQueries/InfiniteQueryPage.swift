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
