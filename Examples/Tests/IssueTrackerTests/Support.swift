import Foundation
import IssueTracker
import LockstepQuery
import LockstepTesting

/// The date the test clients give a failed attempt.
let fixedDate = Date(timeIntervalSince1970: 1_800_000_000)

/// The demo issues with these numbers, in order.
func issues(_ ids: Int...) -> [TrackedIssue] {
    ids.map { id in demoIssues.first { $0.id == id }! }
}

/// The services of a test: `api`, a query client that retries a failed fetch twice (after 2 s,
/// then 4 s, on `clock`) and dates failures `fixedDate`, `clock` for the debounce, and
/// "local-1" for the local id of a comment.
func testServices(api: FakeIssueAPI = FakeIssueAPI(), clock: ManualClock = ManualClock()) -> IssueTrackerServices {
    var creator = OperationClient.StoreCreator.defaultTesting
    creator.retryLimit = 2
    creator.backoff = .exponential(.seconds(2))
    creator.delayer = nil   // wait on the client's clock
    return IssueTrackerServices(
        api: api,
        queries: OperationClient(storeCreator: creator, clock: clock, now: { fixedDate }),
        clock: clock,
        newCommentID: { "local-1" })
}

/// The app with the first page of the list loaded.
func loadedState() -> IssueTrackerState {
    var state = IssueTrackerState()
    state.list.feed = IssueFeed(issues: issues(1, 2, 3), status: .success, hasNextPage: true)
    return state
}
