import Foundation
import IdentifiedCollections
import LockstepCasePathsTesting
import LockstepPersistence
import LockstepTesting
import SyncUps
import Testing

/// The whole app: navigating the stack from the list, and the sync-ups kept in a file.
@MainActor
@Suite("SyncUps: the app")
struct AppTests {
    @Test(
        "List, detail, meeting, and back: each screen pushed by an action, popped by the stack's binding",
        arguments: Composition.allCases)
    func navigation(composition: Composition) async {
        let harness = Harness()
        let store = await harness.makeStore(composition: composition)

        await store.send(.list(.syncUpTapped(id: SyncUp.design.id))) {
            $0.path.append(.detail(SyncUpDetailState(syncUp: Shared(value: .design))))
        }
        await store.send(.path(.element(id: 0, action: .detail(.startMeetingTapped))))
        await store.receive(\.path[id: 0].detail.delegate.startMeeting) {
            $0.path.append(.record(RecordMeetingState(syncUp: Shared(value: .design))))
        }
        await store.send(.path(.element(id: 1, action: .record(.onTask))))
        // The user goes back: the navigation stack writes a shorter path, which pops the meeting
        // and cancels its timer and recognizer.
        await store.send(.path(.popFrom(id: 1))) {
            $0.path.pop(from: 1)
        }
        await store.finish()
        #expect(harness.clock.sleeperCount == 0)
        await store.send(.path(.popFrom(id: 0))) {
            $0.path.removeAll()
        }
    }

    @Test("A meeting run to its end is saved in the file, under its sync-up")
    func recordingIsSaved() async {
        let harness = Harness()
        let store = await harness.makeStore()
        store.exhaustivity = .off

        await store.send(.list(.syncUpTapped(id: SyncUp.design.id)))
        await store.send(.path(.element(id: 0, action: .detail(.startMeetingTapped))))
        await store.receive(\.path[id: 0].detail.delegate.startMeeting)
        await store.send(.path(.element(id: 1, action: .record(.onTask))))
        await harness.speech.send(.transcript("Hello world"))
        await harness.clock.advance(by: .seconds(6))
        await store.receive(\.path.popFrom, 1)
        await store.finish()

        let meeting = Meeting(id: UUID(0), date: testDate, transcript: "Hello world")
        store.assert {
            $0.list.syncUps[id: SyncUp.design.id]?.meetings.insert(meeting, at: 0)
        }
        #expect(store.state.path[id: 0]?.detail?.syncUp.meetings.first == meeting)
        #expect(harness.saved?[id: SyncUp.design.id]?.meetings.first == meeting)
    }

    @Test("Launch: the sync-ups come from the file")
    func launchLoads() async {
        let harness = Harness(syncUps: [.design])
        let state = await launchState(from: harness.persisted)
        #expect(state == AppState(list: SyncUpsListState(syncUps: Shared(value: [.design]))))
    }

    @Test("Launch: the first time, with no file, the list is empty and the first change creates it")
    func launchWithoutFile() async {
        let storage = InMemoryStorage()
        let persisted = PersistedState<IdentifiedArrayOf<SyncUp>>(storage: storage)
        let state = await launchState(from: persisted)
        #expect(state == AppState(list: SyncUpsListState(syncUps: Shared(value: []))))
        #expect(storage.data == nil)
    }

    @Test("Launch: a file that cannot be decoded is an alert, and nothing is saved over it")
    func launchWithBadFile() async throws {
        let harness = Harness(data: Data("not json".utf8))
        let store = await harness.makeStore()
        let alert = try #require(store.state.list.alert)
        #expect(alert.title == "Data failed to load")
        #expect(alert == .dataFailedToLoad("The sync-ups at memory could not be decoded."))

        let refused = "The sync-ups at memory were not loaded, so nothing is saved over them."
        // The first action asks for a save of the empty list, which is refused: said once.
        await store.send(.list(.alert(.dismiss))) {
            $0.list.alert = nil
        }
        await store.receive(.list(.saveFailed(refused))) {
            $0.list.alert = .saveFailed(refused)
        }
        await store.send(.list(.alert(.dismiss))) {
            $0.list.alert = nil
        }
        // A change is refused too, and said again.
        await store.send(.list(.addSyncUpTapped)) {
            $0.list.addSyncUp = SyncUpFormState(syncUp: SyncUp(id: UUID(0), attendees: [Attendee(id: UUID(1))]))
        }
        await store.send(.list(.confirmAddSyncUpTapped)) {
            $0.list.addSyncUp = nil
            $0.list.syncUps = [SyncUp(id: UUID(0), attendees: [Attendee(id: UUID(1))])]
        }
        await store.receive(\.list.saveFailed) {
            $0.list.alert = .saveFailed(refused)
        }
        #expect(harness.storage.data == Data("not json".utf8))
    }
}
