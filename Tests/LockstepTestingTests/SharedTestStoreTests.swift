import IdentifiedCollections
import LockstepTesting
import Testing

private struct SyncUp: Equatable, Identifiable, Sendable {
    let id: Int
    var title: String
    var notes = ""
}

private struct Detail: Equatable, Sendable {
    @Shared var syncUp: SyncUp
}

private struct AppState: Equatable, Sendable {
    @Shared var syncUps: IdentifiedArrayOf<SyncUp>
    var detail: Detail?
}

private enum AppAction: Equatable, Sendable {
    case open(id: Int)
    case rename(String)
    case renameTwice
    case renameThenDelete
    case delete
    case archive
    case archived
}

private func appReducer(_ state: inout AppState, _ action: AppAction) {
    switch action {
    case .open(let id):
        if let syncUp = Shared(state.$syncUps[id: id]) {
            state.detail = Detail(syncUp: syncUp)
        }
    case .rename(let title):
        state.detail?.syncUp.title = title
    case .renameTwice, .renameThenDelete:
        state.detail?.syncUp.title = "First"
    case .delete:
        state.syncUps.remove(id: 1)
    case .archive, .archived:
        break
    }
}

/// `.renameTwice` is followed by `.rename("Second")`; `.archive` writes the notes itself, outside
/// the reducer, then sends `.archived`.
private let appMiddleware: PlainMiddleware<AppState, AppAction> = { state, action, dispatch in
    switch action {
    case .renameTwice:
        await dispatch(.rename("Second"))
    case .renameThenDelete:
        await dispatch(.rename("Second"))
        await dispatch(.delete)
    case .archive:
        state.$syncUps.withLock { $0[id: 1]?.notes = "archived" }
        await dispatch(.archived)
    default:
        break
    }
}

@MainActor
private func makeStore() async -> TestStore<AppState, AppAction> {
    let store = TestStore(
        state: AppState(syncUps: Shared(value: [SyncUp(id: 1, title: "Design")])),
        reducer: appReducer,
        middlewares: [appMiddleware]
    )
    await store.send(.open(id: 1)) {
        $0.detail = Detail(syncUp: Shared(value: SyncUp(id: 1, title: "Design")))
    }
    return store
}

@MainActor
@Suite("TestStore: shared values")
struct SharedTestStoreTests {
    @Test("a change to a value the list and the detail share is asserted once, through either")
    func assertedOnceThroughEitherHolder() async {
        let store = await makeStore()
        await store.send(.rename("Engineering")) {
            $0.detail?.syncUp.title = "Engineering"
        }
        await store.send(.rename("Product")) {
            $0.syncUps[id: 1]?.title = "Product"
        }
        #expect(store.state.syncUps[id: 1]?.title == "Product")
    }

    @Test("a wrong or missing assertion of a shared change fails with a diff, and never writes the value")
    func wrongAssertionFails() async {
        let store = await makeStore()
        await withKnownIssue {
            await store.send(.rename("Engineering")) {
                $0.detail?.syncUp.title = "Wrong"
            }
        } matching: { issue in
            let text = issue.description
            return text.contains("does not match") && text.contains("Wrong") && text.contains("Engineering")
        }
        #expect(store.state.detail?.syncUp.title == "Engineering")

        await withKnownIssue {
            await store.send(.rename("Product"))
        } matching: { $0.description.contains("State was not expected to change") && $0.description.contains("Product") }
    }

    @Test("each step is checked against the value right after its reducer, though later steps changed it since")
    func eachStepReadsItsOwnMoment() async {
        let store = await makeStore()
        await store.send(.renameTwice) {
            $0.detail?.syncUp.title = "First"
        }
        await store.receive(.rename("Second")) {
            $0.detail?.syncUp.title = "Second"
        }
    }

    @Test("a write a middleware makes itself is asserted with the next action's state")
    func middlewareWriteIsAssertedNext() async {
        let store = await makeStore()
        await store.send(.archive)
        await store.receive(.archived) {
            $0.syncUps[id: 1]?.notes = "archived"
        }
    }

    @Test("assert { } checks shared values as they are now")
    func assertReadsNow() async {
        let store = await makeStore()
        await store.send(.rename("Engineering")) { $0.detail?.syncUp.title = "Engineering" }
        store.assert { $0.syncUps[id: 1]?.title = "Engineering" }
        withKnownIssue {
            store.assert { $0.syncUps[id: 1]?.title = "Design" }
        } matching: { $0.description.contains("does not match the assertion") }
    }

    @Test("with exhaustivity off, only what the assertion sets is checked")
    func nonExhaustive() async {
        let store = await makeStore()
        store.exhaustivity = .off
        await store.send(.renameTwice)
        await store.receive(.rename("Second")) { $0.syncUps[id: 1]?.title = "Second" }
    }

    @Test("a test store lets the boxes forget what it has asserted: each assertion moves its floor past it")
    func assertedStepsMoveTheFloor() async throws {
        let store = await makeStore()
        var lastFloor = try #require(SharedVersions.floor(of: store.sharedRecorder))
        for _ in 0..<300 {
            await store.send(.renameTwice) { $0.detail?.syncUp.title = "First" }
            // `.rename("Second")` is not asserted yet: the state before it, after the write of
            // "First", may still be read.
            let pending = try #require(SharedVersions.floor(of: store.sharedRecorder))
            #expect(pending > lastFloor)
            await store.receive(.rename("Second")) { $0.detail?.syncUp.title = "Second" }
            // Asserted: only the state after the write of "Second" may be read now.
            lastFloor = try #require(SharedVersions.floor(of: store.sharedRecorder))
            #expect(lastFloor > pending)
            #expect(lastFloor <= SharedVersions.now)
        }
    }

    @Test("a box keeps no past value older than the oldest moment a test store may read, but the one held then")
    func boxForgetsWhatNoStoreCanRead() async throws {
        let store = await makeStore()
        for _ in 0..<300 {
            await store.send(.renameTwice) { $0.detail?.syncUp.title = "First" }
            await store.receive(.rename("Second")) { $0.detail?.syncUp.title = "Second" }
        }
        // A write made now trims the box to the floor of that moment, at least this one.
        let floor = try #require(SharedVersions.oldestFloor)
        store.state.$syncUps.withLock { $0[id: 1]?.notes = "trimmed" }
        let kept = store.state.$syncUps.keptHistoryVersions
        #expect(kept.dropFirst().allSatisfy { $0 > floor })
    }

    @Test("an assertion's reading of a past step does not change what a removed row reads as last seen")
    func pastReadingLeavesLastSeenAlone() async {
        let store = await makeStore()
        // The send's assertion reads the detail's sync-up as it was after "First", while the
        // row has since been renamed "Second" and removed.
        await store.send(.renameThenDelete) { $0.detail?.syncUp.title = "First" }
        #expect(store.state.detail?.syncUp.title == "Second")
        await store.receive(.rename("Second")) { $0.detail?.syncUp.title = "Second" }
        await store.receive(.delete) { $0.syncUps.remove(id: 1) }
        #expect(store.state.detail?.syncUp.title == "Second")
    }
}
