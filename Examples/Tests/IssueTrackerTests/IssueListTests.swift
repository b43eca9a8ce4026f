import IssueTracker
import Lockstep
import LockstepQuery
import LockstepTesting
import Testing

@MainActor
@Suite("Issue list")
struct IssueListTests {
    @Test("The list follows its infinite query: the idle state first, then each page as it loads")
    func paging() async {
        let api = FakeIssueAPI()
        let store = TestStore(
            state: IssueTrackerState(), reducer: issueTrackerReducer, services: testServices(api: api)) { issueTrackerMiddlewares }

        let shown = await store.send(.list(.task))
        await store.receive(.list(.feedChanged(IssueFeed())))   // not fetched yet
        await store.receive(.list(.feedChanged(IssueFeed(status: .loading)))) { $0.list.feed.status = .loading }
        let firstPage = IssueFeed(issues: issues(1, 2, 3), status: .success, hasNextPage: true)
        await store.receive(.list(.feedChanged(firstPage))) { $0.list.feed = firstPage }

        await store.send(.list(.loadNextPage))
        await store.receive(.list(.feedChanged(IssueFeed(issues: issues(1, 2, 3), status: .loading, hasNextPage: true)))) {
            $0.list.feed.status = .loading
        }
        let twoPages = IssueFeed(issues: issues(1, 2, 3, 4, 5, 6), status: .success, hasNextPage: true)
        await store.receive(.list(.feedChanged(twoPages))) { $0.list.feed = twoPages }

        #expect(api.requests == [.issues(search: "", page: 0), .issues(search: "", page: 1)])
        #expect(listModel(store).lines.last == "More below.")
        await shown.cancel()
    }

    @Test("The search follows the new query once typing stops for 300 ms on the clock; each keystroke restarts the wait")
    func searchDebounce() async {
        let clock = ManualClock()
        let api = FakeIssueAPI()
        let store = TestStore(
            state: loadedState(), reducer: issueTrackerReducer, services: testServices(api: api, clock: clock)) { issueTrackerMiddlewares }

        await store.send(.list(.searchChanged("cr"))) { $0.list.search = "cr" }
        await clock.advance(by: .milliseconds(200))
        let typed = await store.send(.list(.searchChanged("crash"))) { $0.list.search = "crash" }
        await clock.advance(by: .milliseconds(299))
        #expect(api.requests == [])

        await clock.advance(by: .milliseconds(1))
        await store.receive(.list(.feedChanged(IssueFeed()))) { $0.list.feed = IssueFeed() }
        await store.receive(.list(.feedChanged(IssueFeed(status: .loading)))) { $0.list.feed.status = .loading }
        let found = IssueFeed(issues: issues(1, 3, 7), status: .success)
        await store.receive(.list(.feedChanged(found))) { $0.list.feed = found }

        #expect(api.requests == [.issues(search: "crash", page: 0)])
        #expect(listModel(store).lines == ["☆ #1  Crash on launch", "☆ #3  Crash when offline", "☆ #7  Crash on rotate"])
        await typed.cancel()
    }

    @Test("A failed page shows \"Retrying in 2 s…\" from the query's retry progress until the next attempt, which clears it")
    func retryProgress() async {
        let clock = ManualClock()
        let api = FakeIssueAPI()
        api.failNext(1)
        let store = TestStore(
            state: IssueTrackerState(), reducer: issueTrackerReducer, services: testServices(api: api, clock: clock)) { issueTrackerMiddlewares }
        let list = listModel(store)

        let shown = await store.send(.list(.task))
        await store.receive(.list(.feedChanged(IssueFeed())))
        await store.receive(.list(.feedChanged(IssueFeed(status: .loading)))) { $0.list.feed.status = .loading }
        let waiting = OperationRetry(
            failedAttempts: 1, retryLimit: 2, error: APIError.offline, delay: .seconds(2), failureDate: fixedDate)
        await store.receive(.list(.feedChanged(IssueFeed(status: .loading, retry: waiting)))) { $0.list.feed.retry = waiting }
        #expect(list.lines == ["Retrying in 2 s…"])   // the run waits on the clock

        await clock.advance(by: .seconds(2))
        let running = OperationRetry(
            failedAttempts: 1, retryLimit: 2, error: APIError.offline, delay: .seconds(2), failureDate: fixedDate,
            isWaiting: false)
        await store.receive(.list(.feedChanged(IssueFeed(status: .loading, retry: running)))) { $0.list.feed.retry = running }
        let firstPage = IssueFeed(issues: issues(1, 2, 3), status: .success, hasNextPage: true)
        await store.receive(.list(.feedChanged(firstPage))) { $0.list.feed = firstPage }

        #expect(list.retryLine == nil)
        #expect(list.lines.last == "More below.")
        #expect(api.requests == [.issues(search: "", page: 0), .issues(search: "", page: 0)])
        await shown.cancel()
    }

    @Test("A star shows at once and stays when the server takes it; a refused one is rolled back, alone")
    func starIsOptimistic() async {
        let api = FakeIssueAPI()
        let store = TestStore(
            state: loadedState(), reducer: issueTrackerReducer, services: testServices(api: api)) { issueTrackerMiddlewares }

        await store.send(.list(.starTapped(id: 1)))
        await store.receive(.list(.setStarred(id: 1, true))) { $0.list.feed.issues[0].isStarred = true }

        api.failNext(1)
        await store.send(.list(.starTapped(id: 2)))
        await store.receive(.list(.setStarred(id: 2, true))) { $0.list.feed.issues[1].isStarred = true }
        await store.receive(.list(.setStarred(id: 2, false))) { $0.list.feed.issues[1].isStarred = false }
        await store.receive(.list(.starFailed("The star could not be saved: the server cannot be reached."))) {
            $0.list.errorMessage = "The star could not be saved: the server cannot be reached."
        }

        #expect(api.requests == [.star(issue: 1, true), .star(issue: 2, true)])
        #expect(listModel(store).lines.prefix(2) == ["★ #1  Crash on launch", "☆ #2  Typo in settings"])
    }

    @Test("A page delivered after a star keeps the star the list shows")
    func aLaterPageKeepsTheStar() async {
        let store = TestStore(
            state: loadedState(), reducer: issueTrackerReducer, services: testServices()) { issueTrackerMiddlewares }
        await store.send(.list(.starTapped(id: 1)))
        await store.receive(.list(.setStarred(id: 1, true))) { $0.list.feed.issues[0].isStarred = true }

        // The page cached before the star.
        await store.send(.list(.feedChanged(IssueFeed(issues: issues(1, 2, 3), status: .loading, hasNextPage: true)))) {
            $0.list.feed.status = .loading
        }
        #expect(store.state.list.feed.issues[0].isStarred)
    }
}

/// A model of the list of `store`.
@MainActor
func listModel(_ store: TestStore<IssueTrackerState, IssueTrackerAction>) -> IssueListModel {
    IssueListModel(store: store.store.scope(state: \.list, action: IssueTrackerAction.list))
}
