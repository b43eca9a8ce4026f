import IssueTracker
import Lockstep
import LockstepQuery
import LockstepTesting
import Testing

@MainActor
@Suite("Issue detail")
struct IssueDetailTests {
    @Test("The screen's own bridge brings its comments query into the state; dismissing the screen ends it")
    func bridgeEndsWithTheScreen() async throws {
        let services = testServices()
        let comments = services.queries.store(for: CommentsQuery(issueID: 1))
        let store = TestStore(
            state: loadedState(), reducer: issueTrackerReducer, services: services) { issueTrackerMiddlewares }

        await store.send(.openIssue(id: 1)) { $0.detail = IssueDetailState(issue: issues(1)[0]) }
        let shown = await store.send(.detail(.task))
        await store.receive(.detail(.commentsChanged(CommentsFeed())))   // not fetched yet
        await store.receive(.detail(.commentsChanged(CommentsFeed(status: .loading)))) {
            $0.detail?.commentsStatus = .loading
        }
        let seen = Comment(id: "c-a", text: "Seen on 2.3 too.", isSent: true)
        await store.receive(.detail(.commentsChanged(CommentsFeed(comments: [seen], status: .success)))) {
            $0.detail?.comments = [seen]
            $0.detail?.commentsStatus = .success
        }
        #expect(comments.subscriberCount == 1)

        await store.send(.dismissIssue) { $0.detail = nil }
        await shown.finish()
        #expect(comments.subscriberCount == 0)
        // A new state of the query reaches nobody: the test store would report an action.
        _ = try await comments.fetch()
        #expect(comments.currentValue == [seen])
    }

    @Test("A comment shows at once, not sent; the server's copy replaces it")
    func commentIsKept() async throws {
        let api = FakeIssueAPI()
        var state = loadedState()
        state.detail = IssueDetailState(issue: issues(2)[0])
        state.detail?.draft = "Fixed in 2.4"
        let store = TestStore(
            state: state, reducer: issueTrackerReducer, services: testServices(api: api)) { issueTrackerMiddlewares }

        await store.send(.detail(.submitTapped))
        let pending = Comment(id: "local-1", text: "Fixed in 2.4", isSent: false)
        await store.receive(.detail(.commentAdded(pending))) {
            $0.detail?.comments = [pending]
            $0.detail?.draft = ""
        }
        let sent = Comment(id: "c1", text: "Fixed in 2.4", isSent: true)
        await store.receive(.detail(.commentSent(sent, replacing: "local-1"))) { $0.detail?.comments = [sent] }

        #expect(try await api.comments(on: 2) == [sent])
        #expect(IssueDetailModel(store: try #require(detailStore(store))).lines == ["#2  Typo in settings", "  - Fixed in 2.4"])
    }

    @Test("A refused comment is rolled back alone: what the user typed meanwhile stays")
    func commentIsRolledBack() async throws {
        let server = Gate(name: "the server")
        let api = FakeIssueAPI(onRequest: { request in
            if case .post = request { await server.pass() }
        })
        let seen = Comment(id: "c-a", text: "Seen on 2.3 too.", isSent: true)
        var state = loadedState()
        state.detail = IssueDetailState(issue: issues(1)[0])
        state.detail?.comments = [seen]
        state.detail?.draft = "Fixed in 2.4"
        let store = TestStore(
            state: state, reducer: issueTrackerReducer, services: testServices(api: api)) { issueTrackerMiddlewares }

        let submit = await store.send(.detail(.submitTapped))
        let pending = Comment(id: "local-1", text: "Fixed in 2.4", isSent: false)
        await store.receive(.detail(.commentAdded(pending))) {
            $0.detail?.comments = [seen, pending]
            $0.detail?.draft = ""
        }
        await server.arrival()
        #expect(IssueDetailModel(store: try #require(detailStore(store))).lines.last == "  - Fixed in 2.4  (sending…)")
        // While the comment is on its way, the user starts another, and the server goes offline.
        await store.send(.detail(.draftChanged("Not on 2.3"))) { $0.detail?.draft = "Not on 2.3" }
        api.failNext(1)

        server.open()
        await store.receive(.detail(.commentRemoved(id: "local-1"))) { $0.detail?.comments = [seen] }
        await store.receive(.detail(.postFailed("The comment could not be posted: the server cannot be reached."))) {
            $0.detail?.errorMessage = "The comment could not be posted: the server cannot be reached."
        }
        await submit.finish()
        #expect(store.state.detail?.draft == "Not on 2.3")
        #expect(try await api.comments(on: 1) == [seen])
    }

    @Test("A blank comment is refused by the reducer and never posted")
    func blankCommentIsNotPosted() async {
        let api = FakeIssueAPI()
        var state = loadedState()
        state.detail = IssueDetailState(issue: issues(1)[0])
        state.detail?.draft = "  "
        let store = TestStore(
            state: state, reducer: issueTrackerReducer, services: testServices(api: api)) { issueTrackerMiddlewares }

        await store.send(.detail(.submitTapped))
        await store.receive(.detail(.commentAdded(Comment(id: "local-1", text: "  ", isSent: false))))
        #expect(api.requests == [])
    }
}

/// The child store of the issue's screen of `store`, while it is shown.
@MainActor
func detailStore(_ store: TestStore<IssueTrackerState, IssueTrackerAction>) -> ChildStore<IssueDetailState, IssueDetailAction>? {
    store.store.scope(state: \.detail, action: IssueTrackerAction.detail)
}
