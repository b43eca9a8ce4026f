import Foundation
import IdentifiedCollections
import LockstepCasePathsTesting
import LockstepTesting
import SyncUps
import Testing

/// The detail, pushed on the list: editing in a sheet, deleting behind an alert, starting a
/// meeting (or not, without speech recognition), opening a past meeting.
@MainActor
@Suite("SyncUps: the detail")
struct SyncUpDetailTests {
    let detail = StackState<Path>.detail(of:)

    @Test("Edit: Done writes the form's sync-up to the shared sync-up, the list's row, and saves it")
    func edit() async {
        let harness = Harness()
        let store = await harness.makeStore(path: detail)

        await store.send(.path(.element(id: 0, action: .detail(.editTapped)))) {
            $0.path[id: 0]?.modify(\.detail) { $0.destination = .edit(SyncUpFormState(syncUp: .design)) }
        }
        await store.send(.path(.element(id: 0, action: .detail(.destination(.presented(.edit(.binding(.set(\.syncUp.title, "Blob's Meeting"))))))))) {
            $0.path[id: 0]?.modify(\.detail) { $0.destination?.modify(\.edit) { $0.syncUp.title = "Blob's Meeting" } }
        }
        await store.send(.path(.element(id: 0, action: .detail(.doneEditingTapped)))) {
            $0.path[id: 0]?.modify(\.detail) {
                $0.destination = nil
                $0.syncUp.title = "Blob's Meeting"
            }
        }
        #expect(store.state.list.syncUps[id: SyncUp.design.id]?.title == "Blob's Meeting")
        #expect(harness.saved?.first?.title == "Blob's Meeting")
    }

    @Test("Edit: Cancel drops the form's changes")
    func cancelEdit() async {
        let harness = Harness()
        let store = await harness.makeStore(path: detail)
        await store.send(.path(.element(id: 0, action: .detail(.editTapped)))) {
            $0.path[id: 0]?.modify(\.detail) { $0.destination = .edit(SyncUpFormState(syncUp: .design)) }
        }
        await store.send(.path(.element(id: 0, action: .detail(.destination(.presented(.edit(.binding(.set(\.syncUp.title, "Retro"))))))))) {
            $0.path[id: 0]?.modify(\.detail) { $0.destination?.modify(\.edit) { $0.syncUp.title = "Retro" } }
        }
        await store.send(.path(.element(id: 0, action: .detail(.cancelEditTapped)))) {
            $0.path[id: 0]?.modify(\.detail) { $0.destination = nil }
        }
        #expect(harness.storage.saveCount == 0)
    }

    @Test("Delete: the alert's Yes removes the sync-up, and the detail dismisses itself")
    func delete() async {
        let harness = Harness()
        let store = await harness.makeStore(path: detail)
        await store.send(.path(.element(id: 0, action: .detail(.deleteTapped)))) {
            $0.path[id: 0]?.modify(\.detail) { $0.destination = .alert(.deleteSyncUp) }
        }
        await store.send(.path(.element(id: 0, action: .detail(.destination(.presented(.alert(.confirmDeletion))))))) {
            $0.path[id: 0]?.modify(\.detail) { $0.destination = nil }
            $0.list.syncUps = []
        }
        await store.receive(\.path.popFrom, 0) {
            $0.path = StackState()
        }
        #expect(harness.saved == [])
    }

    @Test("Delete on its own: the alert's Yes dismisses the detail")
    func deleteOnItsOwn() async {
        let harness = Harness()
        let store = TestStore(
            state: SyncUpDetailState(syncUp: Shared(value: .design)), reducer: syncUpDetailReducer,
            services: harness.services, middlewares: [syncUpDetailMiddleware])

        await store.send(.deleteTapped) {
            $0.destination = .alert(.deleteSyncUp)
        }
        await store.send(.destination(.presented(.alert(.confirmDeletion)))) {
            $0.destination = nil
        }
        #expect(store.isDismissed)
    }

    @Test("Start: with speech recognition allowed, the meeting is pushed")
    func startMeeting() async {
        let harness = Harness()
        let store = await harness.makeStore(path: detail)
        await store.send(.path(.element(id: 0, action: .detail(.startMeetingTapped))))
        await store.receive(\.path[id: 0].detail.delegate.startMeeting) {
            $0.path.append(.record(RecordMeetingState(syncUp: Shared(value: .design))))
        }
    }

    @Test("Start: speech recognition denied asks first; Continue without recording starts the meeting")
    func speechDenied() async {
        let harness = Harness()
        harness.services.speech.authorizationStatus = { .denied }
        let store = await harness.makeStore(path: detail)
        await store.send(.path(.element(id: 0, action: .detail(.startMeetingTapped))))
        await store.receive(\.path[id: 0].detail.speechUnavailable, .denied) {
            $0.path[id: 0]?.modify(\.detail) { $0.destination = .alert(.speechRecognitionDenied) }
        }
        await store.send(.path(.element(id: 0, action: .detail(.destination(.presented(.alert(.continueWithoutRecording))))))) {
            $0.path[id: 0]?.modify(\.detail) { $0.destination = nil }
        }
        await store.receive(\.path[id: 0].detail.delegate.startMeeting) {
            $0.path.append(.record(RecordMeetingState(syncUp: Shared(value: .design))))
        }
    }

    @Test("Start: speech recognition restricted says so, and Cancel stays on the detail")
    func speechRestricted() async {
        let harness = Harness()
        harness.services.speech.authorizationStatus = { .restricted }
        let store = await harness.makeStore(path: detail)
        await store.send(.path(.element(id: 0, action: .detail(.startMeetingTapped))))
        await store.receive(\.path[id: 0].detail.speechUnavailable, .restricted) {
            $0.path[id: 0]?.modify(\.detail) { $0.destination = .alert(.speechRecognitionRestricted) }
        }
        await store.send(.path(.element(id: 0, action: .detail(.destination(.dismiss))))) {
            $0.path[id: 0]?.modify(\.detail) { $0.destination = nil }
        }
    }

    @Test("Start: Open settings opens them and starts nothing")
    func openSettings() async {
        let harness = Harness()
        harness.services.speech.authorizationStatus = { .denied }
        let store = await harness.makeStore(path: detail)
        await store.send(.path(.element(id: 0, action: .detail(.startMeetingTapped))))
        await store.receive(\.path[id: 0].detail.speechUnavailable) {
            $0.path[id: 0]?.modify(\.detail) { $0.destination = .alert(.speechRecognitionDenied) }
        }
        await store.send(.path(.element(id: 0, action: .detail(.destination(.presented(.alert(.openSettings))))))) {
            $0.path[id: 0]?.modify(\.detail) { $0.destination = nil }
        }
        #expect(harness.openedSettings.count == 1)
    }

    @Test("A past meeting opens on top of the detail")
    func openPastMeeting() async {
        let harness = Harness()
        let store = await harness.makeStore(path: detail)
        await store.send(.path(.element(id: 0, action: .detail(.meetingTapped(id: UUID(104)))))) {
            $0.path.append(.meeting(MeetingState(meeting: SyncUp.design.meetings[0], syncUp: .design)))
        }
    }
}
