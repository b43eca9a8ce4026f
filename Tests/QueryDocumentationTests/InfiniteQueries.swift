// The code of the article "Infinite queries"
// (Sources/LockstepQuery/Documentation.docc/InfiniteQueries.md), which quotes it, and its tests.
import Lockstep
import LockstepTesting
import Observation
import Testing
import LockstepQuery

struct Post: Sendable, Equatable {
    let id: Int
    let title: String
}

struct FeedQuery: InfiniteQueryRequest {
    let initialPageId = 0
    var maxPages: Int? { 10 }

    var path: OperationPath { ["feed"] }

    func pageId(
        after page: InfiniteQueryPage<Int, [Post]>,
        using paging: InfiniteQueryPaging<Int, [Post]>,
        in context: OperationContext
    ) -> Int? {
        page.value.isEmpty ? nil : page.id + 1
    }

    func pageId(
        before page: InfiniteQueryPage<Int, [Post]>,
        using paging: InfiniteQueryPaging<Int, [Post]>,
        in context: OperationContext
    ) -> Int? {
        page.id > 0 ? page.id - 1 : nil
    }

    func fetchPage(
        isolation: isolated (any Actor)?,
        using paging: InfiniteQueryPaging<Int, [Post]>,
        in context: OperationContext,
        with continuation: OperationContinuation<[Post], any Error>
    ) async throws -> [Post] {
        try await context[FeedAPIKey.self].posts(page: paging.pageId)
    }
}

protocol FeedAPI: Sendable {
    func posts(page: Int) async throws -> [Post]
}

enum FeedAPIKey: OperationContext.Key {
    static var defaultValue: any FeedAPI { UnimplementedFeedAPI() }
}

/// Fails the test that calls it: the default of `FeedAPIKey`.
struct UnimplementedFeedAPI: FeedAPI {
    func posts(page: Int) async throws -> [Post] {
        let posts: @Sendable (Int) async throws -> [Post] = unimplemented("FeedAPI.posts")
        return try await posts(page)
    }
}

/// Two posts a page.
struct FakeFeedAPI: FeedAPI {
    func posts(page: Int) async throws -> [Post] {
        [Post(id: 2 * page, title: "Post \(2 * page)"), Post(id: 2 * page + 1, title: "Post \(2 * page + 1)")]
    }
}

@MainActor
@Observable
final class FeedModel {
    @ObservationIgnored
    @SharedOperation(FeedQuery()) var pages

    func reachedBottom() async {
        guard $pages.hasNextPage, !$pages.isLoadingNextPage else { return }
        _ = try? await $pages.fetchNextPage()
    }
}

@Test
func theNextPageIsFetchedOnce() async throws {
    let client = OperationClient(
        storeCreator: .default(
            queryEnableAutomaticFetchingCondition: .always(false),
            networkObserver: nil,
            focusCondition: nil
        )
    )
    client.defaultContext[FeedAPIKey.self] = FakeFeedAPI()
    let feed = client.store(for: FeedQuery())
    try await feed.fetchNextPage()

    async let first = feed.fetchNextPage()
    async let second = feed.fetchNextPage()
    let pages = try await (first, second)

    #expect(pages.0?.id == 1)
    #expect(pages.1?.id == 1)
    #expect(feed.state.pages.map(\.id) == [0, 1])
}

/// A model that keeps the feed's store under its short name.
final class FeedScreenModel {
    let feed: InfiniteQueryStoreOf<FeedQuery>   // InfiniteQueryStore<Int, [Post], any Error>

    init(client: OperationClient) {
        feed = client.store(for: FeedQuery())
    }
}

@MainActor
@Suite("The infinite-queries article")
struct InfiniteQueriesArticleTests {
    @Test("Pages are fetched after and before, and refetched in order")
    func fetchPages() async throws {
        let client = OperationClient()
        client.defaultContext[FeedAPIKey.self] = FakeFeedAPI()
        let feed = client.store(for: FeedQuery())

        try await feed.fetchNextPage()       // no page yet: the first page, 0
        try await feed.fetchNextPage()       // page 1, after the last page
        try await feed.fetchPreviousPage()   // nothing before page 0: returns nil, fetches nothing
        try await feed.fetchAllPages()       // pull to refresh: pages 0 and 1 again, in order

        let posts = feed.state.pages.flatMap(\.value)
        #expect(posts.map(\.id) == [0, 1, 2, 3])
    }

    @Test("The short names of the store's type name the store the client gives")
    func storeTypealiases() {
        let client = OperationClient()
        let model = FeedScreenModel(client: client)
        let full: OperationStore<InfiniteQueryState<Int, [Post], any Error>> = model.feed
        let short: InfiniteQueryStore<Int, [Post], any Error> = client.store(for: FeedQuery())
        #expect(full === short)
    }

    @Test("The model fetches the next page when the bottom is reached")
    func modelFetchesMore() async throws {
        let client = OperationClient()
        client.defaultContext[FeedAPIKey.self] = FakeFeedAPI()
        let model = OperationClient.$current.withValue(client) { FeedModel() }
        await client.waitUntilIdle()
        #expect(model.pages?.map(\.id) == [0])
        await model.reachedBottom()
        #expect(model.pages?.map(\.id) == [0, 1])
    }
}
