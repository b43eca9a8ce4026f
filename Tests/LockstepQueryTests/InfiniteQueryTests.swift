import Foundation
@testable import LockstepQuery
import LockstepTesting
import Testing

/// An error the feed backend throws for a page it rejects.
struct PageRejected: Error, Equatable {
    let page: Int
}

/// The server behind ``FeedQuery``: records the pages asked for, can hold them at a gate, and
/// rejects the pages it is told to.
final class FeedBackend: Sendable {
    let gate = Gate()
    private let state = Lock((calls: [Int](), rejected: [Int: Int]()))

    init(gated: Bool = false) {
        if !gated { gate.open() }
    }

    var calls: [Int] { state.withLock { $0.calls } }

    /// Rejects page `page` the next `times` times it is asked for.
    func reject(_ page: Int, times: Int = 1) {
        state.withLock { $0.rejected[page] = times }
    }

    func page(_ id: Int) async throws -> String {
        let (call, rejected) = state.withLock { state -> (Int, Bool) in
            state.calls.append(id)
            let times = state.rejected[id] ?? 0
            if times > 0 { state.rejected[id] = times - 1 }
            return (state.calls.count, times > 0)
        }
        await gate.pass()
        if rejected { throw PageRejected(page: id) }
        return "page \(id) #\(call)"
    }
}

/// A feed of pages `firstPage...lastPage`, starting at `initialPageId`.
struct FeedQuery: InfiniteQueryRequest {
    let name: String
    let backend: FeedBackend
    var initialPageId = 0
    var firstPage = 0
    var lastPage = 9
    var maxPages: Int?

    var path: OperationPath { ["feed", name] }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name }
    func hash(into hasher: inout Hasher) { hasher.combine(name) }

    func pageId(
        after page: InfiniteQueryPage<Int, String>, using paging: InfiniteQueryPaging<Int, String>,
        in context: OperationContext
    ) -> Int? {
        page.id < lastPage ? page.id + 1 : nil
    }

    func pageId(
        before page: InfiniteQueryPage<Int, String>, using paging: InfiniteQueryPaging<Int, String>,
        in context: OperationContext
    ) -> Int? {
        page.id > firstPage ? page.id - 1 : nil
    }

    func fetchPage(
        isolation: isolated (any Actor)?,
        using paging: InfiniteQueryPaging<Int, String>,
        in context: OperationContext,
        with continuation: OperationContinuation<String, any Error>
    ) async throws -> String {
        try await backend.page(paging.pageId)
    }
}

@Suite("Infinite queries")
struct InfiniteQueryTests {
    @Test func pagesAreKeptInOrderInBothDirections() async throws {
        let backend = FeedBackend()
        let client = makeClient(automaticFetching: false)
        let feed = client.store(
            for: FeedQuery(name: "order", backend: backend, initialPageId: 2, firstPage: 0, lastPage: 3))
        #expect(feed.state.pages.isEmpty)
        #expect(!feed.state.hasNextPage)

        let first = try await feed.fetchNextPage()   // no pages yet: the initial page
        #expect(first?.id == 2)
        try await feed.fetchNextPage()
        try await feed.fetchPreviousPage()
        try await feed.fetchPreviousPage()

        #expect(feed.state.pages.map(\.id) == [0, 1, 2, 3])
        #expect(feed.state.pages.map(\.value) == ["page 0 #4", "page 1 #3", "page 2 #1", "page 3 #2"])
        #expect(backend.calls == [2, 3, 1, 0])
        #expect(!feed.state.hasNextPage)
        #expect(!feed.state.hasPreviousPage)
        #expect(feed.status == .success)
        #expect(feed.state.valueUpdateCount == 4)
    }

    @Test func askingForAPageThatDoesNotExistFetchesNothing() async throws {
        let backend = FeedBackend()
        let client = makeClient(automaticFetching: false)
        let feed = client.store(for: FeedQuery(name: "end", backend: backend, lastPage: 0))
        try await feed.fetchNextPage()
        let updates = feed.state.valueUpdateCount

        let next = try await feed.fetchNextPage()
        let previous = try await feed.fetchPreviousPage()

        #expect(next == nil)
        #expect(previous == nil)
        #expect(backend.calls == [0])
        #expect(feed.state.valueUpdateCount == updates)
        #expect(feed.state.pages.map(\.id) == [0])
    }

    @Test func fetchAllPagesRefetchesEveryPageInOrder() async throws {
        let backend = FeedBackend()
        let client = makeClient(automaticFetching: false)
        let feed = client.store(for: FeedQuery(name: "all", backend: backend))
        for _ in 0..<3 { try await feed.fetchNextPage() }

        let pages = try await feed.fetchAllPages()

        #expect(backend.calls == [0, 1, 2, 0, 1, 2])
        #expect(pages.map(\.value) == ["page 0 #4", "page 1 #5", "page 2 #6"])
        #expect(feed.state.pages.map(\.value) == ["page 0 #4", "page 1 #5", "page 2 #6"])
    }

    @Test func maxPagesDropsPagesFromTheOtherEnd() async throws {
        let backend = FeedBackend()
        let client = makeClient(automaticFetching: false)
        let feed = client.store(for: FeedQuery(name: "cap", backend: backend, maxPages: 2))

        for _ in 0..<3 { try await feed.fetchNextPage() }
        #expect(feed.state.pages.map(\.id) == [1, 2])
        #expect(feed.state.hasPreviousPage)

        try await feed.fetchPreviousPage()
        #expect(feed.state.pages.map(\.id) == [0, 1])
        #expect(feed.state.maxPages == 2)
    }

    @Test func concurrentFetchesOfTheSamePageAreMerged() async throws {
        let backend = FeedBackend(gated: true)
        let client = makeClient(automaticFetching: false)
        let feed = client.store(for: FeedQuery(name: "dedupe", backend: backend))

        try await withTrackedWork { work in
            let first = await startingRun(of: feed) { try await feed.fetchNextPage() }
            await backend.gate.arrival()
            #expect(feed.state.isLoadingInitialPage)
            let second = work.start("the second fetch") { try await feed.fetchNextPage() }
            await work.waitUntilParked()   // the second fetch waits for the first page's run
            backend.gate.open()

            let firstPage = try await first.value
            let secondPage = try await second.value()
            #expect(firstPage?.id == 0)
            #expect(secondPage??.id == 0)
            #expect(backend.calls == [0])
            #expect(!feed.state.isLoading)
        }
    }

    @Test func nextAndPreviousPagesLoadTogether() async throws {
        let backend = FeedBackend(gated: true)
        backend.gate.open()
        let client = makeClient(automaticFetching: false)
        let feed = client.store(for: FeedQuery(name: "both", backend: backend, initialPageId: 5))
        try await feed.fetchNextPage()
        backend.gate.close()

        let next = Task { try await feed.fetchNextPage() }
        let previous = Task { try await feed.fetchPreviousPage() }
        await backend.gate.arrival(count: 3)
        #expect(feed.state.isLoadingNextPage)
        #expect(feed.state.isLoadingPreviousPage)
        #expect(!feed.state.isLoadingAllPages)
        #expect(feed.status == .loading)
        backend.gate.open()
        _ = try await (next.value, previous.value)

        #expect(feed.state.pages.map(\.id) == [4, 5, 6])
        #expect(!feed.state.isLoadingNextPage && !feed.state.isLoadingPreviousPage)
    }

    @Test func aRejectedPageFailsAloneAndIsFetchedAgainOnItsOwn() async throws {
        let backend = FeedBackend()
        let client = makeClient(automaticFetching: false)
        let feed = client.store(for: FeedQuery(name: "reject", backend: backend))
        try await feed.fetchNextPage()
        try await feed.fetchNextPage()
        backend.reject(2)

        await #expect(throws: PageRejected(page: 2)) { try await feed.fetchNextPage() }
        #expect(feed.state.pages.map(\.id) == [0, 1])
        #expect(feed.error as? PageRejected == PageRejected(page: 2))
        #expect(feed.status == .failure)
        #expect(feed.state.hasNextPage)

        let page = try await feed.fetchNextPage()
        #expect(page?.id == 2)
        #expect(feed.state.pages.map(\.id) == [0, 1, 2])
        #expect(feed.error == nil)
        #expect(backend.calls == [0, 1, 2, 2])
    }

    @Test func aFailedPageIsRetriedWithoutTouchingTheOthers() async throws {
        let backend = FeedBackend()
        let client = makeClient(automaticFetching: false)
        let feed = client.store(for: FeedQuery(name: "retry", backend: backend).retry(limit: 1))
        try await feed.fetchNextPage()
        backend.reject(1)

        let page = try await feed.fetchNextPage()

        #expect(page?.value == "page 1 #3")
        #expect(backend.calls == [0, 1, 1])
        #expect(feed.state.pages.map(\.value) == ["page 0 #1", "page 1 #3"])
        #expect(feed.state.errorUpdateCount == 0)
    }

    @Test func aSubscriberFetchesTheFirstPageAndInvalidationRefetchesEveryPage() async throws {
        let backend = FeedBackend()
        let client = makeClient()
        let feed = client.store(for: FeedQuery(name: "auto", backend: backend))
        let states = StateLog<[Int]>()
        let subscription = feed.subscribe(with: QueryEventHandler { state, _ in states.append(state.pages.map(\.id)) })
        await client.waitUntilIdle()
        #expect(feed.state.pages.map(\.id) == [0])
        try await feed.fetchNextPage()

        await client.invalidateStores(matching: ["feed", "auto"])

        #expect(backend.calls == [0, 1, 0, 1])
        #expect(feed.state.pages.map(\.value) == ["page 0 #3", "page 1 #4"])
        #expect(states.all.first == [])
        #expect(states.all.last == [0, 1])
        subscription.cancel()
    }

    @Test func settingThePagesByHandIsHeardAndKept() async throws {
        let client = makeClient(automaticFetching: false)
        let feed = client.store(for: FeedQuery(name: "hand", backend: FeedBackend()))

        feed.currentValue = [InfiniteQueryPage(id: 7, value: "cached")]

        #expect(feed.state.pages == [InfiniteQueryPage(id: 7, value: "cached")])
        #expect(feed.state.nextPageId == 8)
        #expect(feed.state.previousPageId == 6)
    }
}
