import Lockstep
import LockstepTesting
import Testing

// An optimistic update applies its change through the reducer at once, keeps it when the work
// succeeds, and dispatches its rollback (which undoes that change alone) when the work fails or
// is cancelled.

private struct Comment: Equatable, Sendable {
    var id: Int
    var text: String
    var isPending = true
}

private struct PostError: Error, Equatable {
    var reason: String
}

private struct CommentsState: Equatable, Sendable {
    var comments: [Comment] = []
    var draft = ""
    var errors: [String] = []
}

private enum CommentsAction: Equatable, Sendable {
    case submitTapped
    case draftChanged(String)
    case commentAdded(Comment)
    case commentRemoved(id: Int)
    case commentSaved(Comment, replacing: Int)
    case commentReceived(Comment)
    case postFailed(String)
}

private func commentsReducer(_ state: inout CommentsState, _ action: CommentsAction) {
    switch action {
    case .submitTapped:
        break
    case .draftChanged(let draft):
        state.draft = draft
    case .commentAdded(let comment):
        // A blank comment is refused: the middleware learns it from the unchanged state.
        guard !comment.text.isEmpty else { return }
        state.comments.append(comment)
        state.draft = ""
    case .commentRemoved(let id):
        state.comments.removeAll { $0.id == id }
    case .commentSaved(let saved, let id):
        guard let index = state.comments.firstIndex(where: { $0.id == id }) else { return }
        state.comments[index] = saved
    case .commentReceived(let comment):
        state.comments.append(comment)
    case .postFailed(let reason):
        state.errors.append(reason)
    }
}

/// The server: answers after the gate lets it through (when there is one), with the saved
/// comment or `failure`; and what each optimistic update ended with.
private final class CommentServices: Sendable {
    let gate: Gate?
    let failure: PostError?
    private let recorded = Lock<(posts: Int, outcomes: [OptimisticOutcome<Comment, PostError>])>((0, []))

    init(gate: Gate? = nil, failure: PostError? = nil) {
        self.gate = gate
        self.failure = failure
    }

    var posts: Int { recorded.withLock { $0.posts } }
    var outcomes: [OptimisticOutcome<Comment, PostError>] { recorded.withLock { $0.outcomes } }

    func newID() -> Int { 1 }

    func post(_ comment: Comment) async throws(PostError) -> Comment {
        recorded.withLock { $0.posts += 1 }
        await gate?.pass()
        if Task.isCancelled { throw PostError(reason: "cancelled") }
        if let failure { throw failure }
        return Comment(id: 100 + comment.id, text: comment.text, isPending: false)
    }

    func record(_ outcome: OptimisticOutcome<Comment, PostError>) {
        recorded.withLock { $0.outcomes.append(outcome) }
    }
}

private func commentsMiddleware(
    state: CommentsState, action: CommentsAction, services: CommentServices, dispatch: Dispatcher<CommentsAction>
) async {
    guard action == .submitTapped else { return }
    let pending = Comment(id: services.newID(), text: state.draft)
    let outcome = await dispatch.optimistically(.commentAdded(pending), rollback: .commentRemoved(id: pending.id)) {
        () async throws(PostError) in try await services.post(pending)
    } success: { saved in
        .commentSaved(saved, replacing: pending.id)
    } failure: { error in
        .postFailed(error.reason)
    }
    services.record(outcome)
}

@MainActor
private func makeStore(_ services: CommentServices, draft: String = "Nice") -> TestStore<CommentsState, CommentsAction> {
    TestStore(
        state: CommentsState(draft: draft), reducer: commentsReducer, services: services,
        middlewares: [commentsMiddleware])
}

@MainActor
@Suite("Optimistic updates")
struct OptimisticUpdateTests {
    @Test("A change whose work succeeds stays, and the success action replaces the local copy")
    func successKeepsTheChange() async {
        let services = CommentServices()
        let store = makeStore(services)
        await store.send(.submitTapped)
        await store.receive(.commentAdded(Comment(id: 1, text: "Nice"))) {
            $0.comments = [Comment(id: 1, text: "Nice")]
            $0.draft = ""
        }
        await store.receive(.commentSaved(Comment(id: 101, text: "Nice", isPending: false), replacing: 1)) {
            $0.comments = [Comment(id: 101, text: "Nice", isPending: false)]
        }
        #expect(services.outcomes == [.kept(Comment(id: 101, text: "Nice", isPending: false))])
    }

    @Test("A failure rolls back only its change: what changed meanwhile stays")
    func failureRollsBackOnlyItsChange() async {
        let server = Gate(name: "server")
        let services = CommentServices(gate: server, failure: PostError(reason: "offline"))
        let store = makeStore(services)
        let submit = await store.send(.submitTapped)
        await store.receive(.commentAdded(Comment(id: 1, text: "Nice"))) {
            $0.comments = [Comment(id: 1, text: "Nice")]
            $0.draft = ""
        }
        // While the post is in flight, another comment arrives and the user types again.
        await store.send(.commentReceived(Comment(id: 7, text: "Agreed", isPending: false))) {
            $0.comments.append(Comment(id: 7, text: "Agreed", isPending: false))
        }
        await store.send(.draftChanged("Also")) { $0.draft = "Also" }

        server.open()
        await store.receive(.commentRemoved(id: 1)) {
            $0.comments = [Comment(id: 7, text: "Agreed", isPending: false)]
        }
        await store.receive(.postFailed("offline")) { $0.errors = ["offline"] }
        await submit.finish()
        #expect(store.state.draft == "Also")
        #expect(services.outcomes == [.rolledBack(PostError(reason: "offline"))])
    }

    @Test("A change the reducer refuses runs no work and needs no rollback")
    func aRefusedChangeRunsNoWork() async {
        let services = CommentServices()
        let store = makeStore(services, draft: "")
        await store.send(.submitTapped)
        await store.receive(.commentAdded(Comment(id: 1, text: "")))
        #expect(services.posts == 0)
        #expect(services.outcomes == [.rejected])
    }

    @Test("Cancelled work rolls its change back, silently: no failure action")
    func cancellationRollsBackSilently() async {
        let server = Gate(name: "server")
        let services = CommentServices(gate: server, failure: PostError(reason: "offline"))
        let store = makeStore(services)
        let submit = await store.send(.submitTapped)
        await store.receive(.commentAdded(Comment(id: 1, text: "Nice"))) {
            $0.comments = [Comment(id: 1, text: "Nice")]
            $0.draft = ""
        }
        await submit.cancel()
        await store.receive(.commentRemoved(id: 1)) { $0.comments = [] }
        #expect(store.state.errors.isEmpty)
        #expect(services.outcomes == [.cancelled])
    }

    @Test("A dismissed feature's cancelled work has nothing to roll back, and reports nothing")
    func aDismissedFeatureIsNotRolledBack() async {
        struct AppState: Equatable, Sendable {
            var comments: CommentsState?
        }
        enum AppAction: Equatable, Sendable {
            case comments(CommentsAction)
            case dismiss
            var comments: CommentsAction? {
                if case .comments(let action) = self { return action }
                return nil
            }
        }
        let server = Gate(name: "server")
        let services = CommentServices(gate: server)
        let store = TestStore(
            state: AppState(comments: CommentsState(draft: "Nice")),
            reducer: combineReducers(
                ifLetReducer(commentsReducer, state: \AppState.comments, action: \AppAction.comments),
                { (state: inout AppState, action: AppAction) in
                    if action == .dismiss { state.comments = nil }
                }),
            services: services) {
            ifLetMiddleware(
                commentsMiddleware, state: \AppState.comments, action: \AppAction.comments,
                embed: AppAction.comments)
        }
        let submit = await store.send(.comments(.submitTapped))
        await store.receive(.comments(.commentAdded(Comment(id: 1, text: "Nice")))) {
            $0.comments?.comments = [Comment(id: 1, text: "Nice")]
            $0.comments?.draft = ""
        }
        await store.send(.dismiss) { $0.comments = nil }
        await submit.finish()
        #expect(services.outcomes == [.cancelled])
    }

    @Test("dispatch(_:returningChangeOf:) returns the state around the reducer of its action")
    func aDispatchReturnsTheChange() async {
        let changes = Lock<[StateChange<CommentsState>?]>([])
        let store = Store(
            state: CommentsState(draft: "Hi"),
            reducer: commentsReducer,
            middlewares: [{ _, action, dispatch in
                guard action == .submitTapped else { return }
                let added = await dispatch(.commentAdded(Comment(id: 1, text: "Hi")), returningChangeOf: CommentsState.self)
                let refused = await dispatch(.commentAdded(Comment(id: 2, text: "")), returningChangeOf: CommentsState.self)
                changes.withLock { $0 = [added, refused] }
            }])
        await store.dispatch(.submitTapped)
        let recorded = changes.withLock { $0 }
        #expect(recorded.count == 2)
        #expect(recorded.first??.stateBefore == CommentsState(draft: "Hi"))
        #expect(recorded.first??.stateAfter == CommentsState(comments: [Comment(id: 1, text: "Hi")]))
        #expect(recorded.first??.isChanged == true)
        #expect(recorded.last??.isChanged == false)
    }

    @Test("On an ActorStore, a failure rolls back its change as on a Store")
    func anActorStoreRollsBack() async {
        let services = CommentServices(failure: PostError(reason: "offline"))
        let store = ActorStore(
            state: CommentsState(draft: "Nice"), reducer: commentsReducer, services: services,
            middlewares: [commentsMiddleware])
        await store.dispatch(.submitTapped)
        #expect(await store.state == CommentsState(errors: ["offline"]))
        #expect(services.outcomes == [.rolledBack(PostError(reason: "offline"))])
    }

    @Test("A scoped middleware's change is its feature's part of the state")
    func aScopedChangeIsTheFeaturesPart() async {
        struct AppState: Equatable, Sendable {
            var comments = CommentsState(draft: "Hi")
            var other = 0
        }
        enum AppAction: Sendable {
            case comments(CommentsAction)
            var comments: CommentsAction? {
                if case .comments(let action) = self { return action }
                return nil
            }
        }
        let changes = Lock<[StateChange<CommentsState>]>([])
        let feature: PlainMiddleware<CommentsState, CommentsAction> = { _, action, dispatch in
            guard action == .submitTapped else { return }
            if let change = await dispatch(.commentAdded(Comment(id: 1, text: "Hi")), returningChangeOf: CommentsState.self) {
                changes.withLock { $0.append(change) }
            }
        }
        let store = Store(
            state: AppState(),
            reducer: { (state: inout AppState, action: AppAction) in
                if let action = action.comments { commentsReducer(&state.comments, action) }
            }) {
            scopeMiddleware(feature, state: \AppState.comments, action: \AppAction.comments, embed: AppAction.comments)
        }
        await store.dispatch(.comments(.submitTapped))
        #expect(changes.withLock { $0 } == [
            StateChange(stateBefore: CommentsState(draft: "Hi"), stateAfter: CommentsState(comments: [Comment(id: 1, text: "Hi")]))
        ])
    }
}
