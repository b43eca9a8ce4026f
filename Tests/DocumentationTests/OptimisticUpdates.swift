// The code of the article "Optimistic updates"
// (Sources/Lockstep/Documentation.docc/OptimisticUpdates.md).
import Lockstep
import LockstepTesting
import Testing

struct IssueComment: Equatable, Sendable {
    var id: String
    var text: String
    var isSent: Bool
}

struct IssueState: Equatable, Sendable {
    var comments: [IssueComment] = []
    var draft = ""
    var isStarred = false
    var errorMessage: String?
}

enum IssueAction: Equatable, Sendable {
    case starTapped
    case starredChanged(Bool)
    case submitTapped
    case commentAdded(IssueComment)
    case commentRemoved(id: String)
    case commentSent(IssueComment, replacing: String)
    case postFailed(String)
    case draftChanged(String)
}

struct IssueServices: Sendable {
    var newCommentID: @Sendable () -> String
    var post: @Sendable (IssueComment) async throws -> IssueComment
    var setStarred: @Sendable (Bool) async throws -> Void
}

func issueReducer(_ state: inout IssueState, _ action: IssueAction) {
    switch action {
    case .starTapped, .submitTapped:
        break
    case .starredChanged(let isStarred):
        state.isStarred = isStarred
    case .commentAdded(let comment):
        guard !comment.text.isEmpty else { return }   // a blank comment is refused
        state.comments.append(comment)
        state.draft = ""
    case .commentRemoved(let id):
        state.comments.removeAll { $0.id == id }
    case .commentSent(let sent, let id):
        guard let index = state.comments.firstIndex(where: { $0.id == id }) else { return }
        state.comments[index] = sent
    case .postFailed(let message):
        state.errorMessage = message
    case .draftChanged(let draft):
        state.draft = draft
    }
}

func issueMiddleware(
    state: IssueState,
    action: IssueAction,
    services: IssueServices,
    dispatch: Dispatcher<IssueAction>
) async {
    switch action {
    case .starTapped:
        let starred = !state.isStarred
        await dispatch.optimistically(.starredChanged(starred), rollback: .starredChanged(!starred)) {
            try await services.setStarred(starred)
        }
    case .submitTapped:
        let pending = IssueComment(id: services.newCommentID(), text: state.draft, isSent: false)
        await dispatch.optimistically(.commentAdded(pending), rollback: .commentRemoved(id: pending.id)) {
            try await services.post(pending)
        } success: { sent in
            .commentSent(sent, replacing: pending.id)
        } failure: { _ in
            .postFailed("The comment could not be sent.")
        }
    default:
        break
    }
}

func commentMiddleware(
    state: IssueState,
    action: IssueAction,
    services: IssueServices,
    dispatch: Dispatcher<IssueAction>
) async {
    guard action == .submitTapped else { return }
    let pending = IssueComment(id: services.newCommentID(), text: state.draft, isSent: false)
    let change = await dispatch(.commentAdded(pending), returningChangeOf: IssueState.self)
    guard let change, change.isChanged else { return }   // refused: nothing to post
    await dispatch.run {
        let sent = try await services.post(pending)
        await dispatch(.commentSent(sent, replacing: pending.id))
    } catch: { _ in
        await dispatch(.commentRemoved(id: pending.id))
    }
}

struct Offline: Error {}

@MainActor
@Suite("Optimistic updates article")
struct OptimisticUpdatesArticleTests {
    @Test
    func aSentCommentReplacesItsLocalCopy() async {
        let store = TestStore(
            state: IssueState(draft: "Looks good"),
            reducer: issueReducer,
            services: IssueServices(
                newCommentID: { "local-1" },
                post: { comment in IssueComment(id: "c-42", text: comment.text, isSent: true) },
                setStarred: { _ in }),
            middlewares: [issueMiddleware])

        await store.send(.submitTapped)
        await store.receive(.commentAdded(IssueComment(id: "local-1", text: "Looks good", isSent: false))) {
            $0.comments = [IssueComment(id: "local-1", text: "Looks good", isSent: false)]
            $0.draft = ""
        }
        await store.receive(.commentSent(IssueComment(id: "c-42", text: "Looks good", isSent: true), replacing: "local-1")) {
            $0.comments = [IssueComment(id: "c-42", text: "Looks good", isSent: true)]
        }
    }

    @Test
    func aFailedCommentIsRolledBackAlone() async {
        let server = Gate(name: "server")
        let store = TestStore(
            state: IssueState(draft: "Looks good"),
            reducer: issueReducer,
            services: IssueServices(
                newCommentID: { "local-1" },
                post: { _ in
                    await server.pass()
                    throw Offline()
                },
                setStarred: { _ in }),
            middlewares: [issueMiddleware])

        let submit = await store.send(.submitTapped)
        await store.receive(.commentAdded(IssueComment(id: "local-1", text: "Looks good", isSent: false))) {
            $0.comments = [IssueComment(id: "local-1", text: "Looks good", isSent: false)]
            $0.draft = ""
        }
        // While the comment is on its way, the user starts another one.
        await store.send(.draftChanged("One more thing")) { $0.draft = "One more thing" }

        server.open()
        await store.receive(.commentRemoved(id: "local-1")) { $0.comments = [] }
        await store.receive(.postFailed("The comment could not be sent.")) {
            $0.errorMessage = "The comment could not be sent."
        }
        await submit.finish()
        #expect(store.state.draft == "One more thing")
    }

    @Test
    func aStarIsShownAtOnceAndRolledBackWhenRefused() async {
        let store = TestStore(
            state: IssueState(),
            reducer: issueReducer,
            services: IssueServices(
                newCommentID: { "local-1" },
                post: { $0 },
                setStarred: { _ in throw Offline() }),
            middlewares: [issueMiddleware])

        await store.send(.starTapped)
        await store.receive(.starredChanged(true)) { $0.isStarred = true }
        await store.receive(.starredChanged(false)) { $0.isStarred = false }
    }

    @Test
    func aMiddlewareReadsWhatTheReducerTook() async {
        let posts = Lock(0)
        let services = IssueServices(
            newCommentID: { "local-1" },
            post: { comment in
                posts.withLock { $0 += 1 }
                throw Offline()
            },
            setStarred: { _ in })
        let blank = TestStore(
            state: IssueState(draft: ""), reducer: issueReducer, services: services, middlewares: [commentMiddleware])
        await blank.send(.submitTapped)
        await blank.receive(.commentAdded(IssueComment(id: "local-1", text: "", isSent: false)))
        #expect(posts.withLock { $0 } == 0)

        let written = TestStore(
            state: IssueState(draft: "Hi"), reducer: issueReducer, services: services, middlewares: [commentMiddleware])
        await written.send(.submitTapped)
        await written.receive(.commentAdded(IssueComment(id: "local-1", text: "Hi", isSent: false))) {
            $0.comments = [IssueComment(id: "local-1", text: "Hi", isSent: false)]
            $0.draft = ""
        }
        await written.receive(.commentRemoved(id: "local-1")) { $0.comments = [] }
        #expect(posts.withLock { $0 } == 1)
    }

    @Test
    func aBlankCommentIsNeverPosted() async {
        let posts = Lock(0)
        let store = TestStore(
            state: IssueState(draft: ""),
            reducer: issueReducer,
            services: IssueServices(
                newCommentID: { "local-1" },
                post: { comment in
                    posts.withLock { $0 += 1 }
                    return comment
                },
                setStarred: { _ in }),
            middlewares: [issueMiddleware])

        await store.send(.submitTapped)
        await store.receive(.commentAdded(IssueComment(id: "local-1", text: "", isSent: false)))
        #expect(posts.withLock { $0 } == 0)
    }
}
