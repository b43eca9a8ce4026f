import Foundation
import IdentifiedCollections
import LockstepCasePathsTesting
import LockstepTesting
import SyncUps
import Testing

/// The list: adding a sync-up through the form in a sheet, cancelling, deleting; every change saved.
@MainActor
@Suite("SyncUps: the list")
struct SyncUpsListTests {
    @Test("Add: the form opens with a new sync-up, confirm appends it and saves the list")
    func add() async {
        let harness = Harness(syncUps: [])
        let store = await harness.makeStore()

        let syncUp = SyncUp(id: UUID(0), attendees: [Attendee(id: UUID(1))])
        await store.send(.list(.addSyncUpTapped)) {
            $0.list.addSyncUp = SyncUpFormState(syncUp: syncUp)
        }
        await store.send(.list(.addSyncUp(.presented(.binding(.set(\.syncUp.title, "Engineering")))))) {
            $0.list.addSyncUp?.syncUp.title = "Engineering"
        }
        await store.send(.list(.addSyncUp(.presented(.attendeeNameChanged(id: UUID(1), name: "Blob"))))) {
            $0.list.addSyncUp?.syncUp.attendees[id: UUID(1)]?.name = "Blob"
        }
        await store.send(.list(.confirmAddSyncUpTapped)) {
            $0.list.addSyncUp = nil
            $0.list.syncUps = [SyncUp(id: UUID(0), attendees: [Attendee(id: UUID(1), name: "Blob")], title: "Engineering")]
        }
        #expect(harness.saved == store.state.list.syncUps)
    }

    @Test("Add: attendees left blank are dropped, one is kept when all are")
    func addValidatesAttendees() async {
        let harness = Harness(syncUps: [])
        let store = await harness.makeStore()
        let syncUp = SyncUp(id: UUID(0), attendees: [Attendee(id: UUID(1))])
        await store.send(.list(.addSyncUpTapped)) {
            $0.list.addSyncUp = SyncUpFormState(syncUp: syncUp)
        }
        await store.send(.list(.addSyncUp(.presented(.addAttendeeTapped)))) {
            $0.list.addSyncUp?.syncUp.attendees.append(Attendee(id: UUID(2)))
            $0.list.addSyncUp?.focus = .attendee(UUID(2))
        }
        await store.send(.list(.addSyncUp(.presented(.attendeeNameChanged(id: UUID(2), name: "Blob"))))) {
            $0.list.addSyncUp?.syncUp.attendees[id: UUID(2)]?.name = "Blob"
        }
        await store.send(.list(.addSyncUp(.presented(.attendeeNameChanged(id: UUID(1), name: "   "))))) {
            $0.list.addSyncUp?.syncUp.attendees[id: UUID(1)]?.name = "   "
        }
        await store.send(.list(.confirmAddSyncUpTapped)) {
            $0.list.addSyncUp = nil
            $0.list.syncUps = [SyncUp(id: UUID(0), attendees: [Attendee(id: UUID(2), name: "Blob")])]
        }
    }

    @Test("Cancel: the sheet closes and nothing is added or saved")
    func cancelAdd() async {
        let harness = Harness()
        let store = await harness.makeStore()
        let syncUp = SyncUp(id: UUID(0), attendees: [Attendee(id: UUID(1))])
        await store.send(.list(.addSyncUpTapped)) {
            $0.list.addSyncUp = SyncUpFormState(syncUp: syncUp)
        }
        await store.send(.list(.dismissAddSyncUpTapped)) {
            $0.list.addSyncUp = nil
        }
        #expect(harness.storage.saveCount == 0)
    }

    @Test("Swiping the sheet away dismisses it as Cancel does")
    func swipeAwayAdd() async {
        let harness = Harness()
        let store = await harness.makeStore()
        await store.send(.list(.addSyncUpTapped)) {
            $0.list.addSyncUp = SyncUpFormState(syncUp: SyncUp(id: UUID(0), attendees: [Attendee(id: UUID(1))]))
        }
        await store.send(.list(.addSyncUp(.dismiss))) {
            $0.list.addSyncUp = nil
        }
    }

    @Test("Delete: the swiped sync-up leaves the list and the file")
    func delete() async {
        let second = SyncUp(id: UUID(200), title: "Retro")
        let harness = Harness(syncUps: [.design, second])
        let store = await harness.makeStore()
        await store.send(.list(.deleteSyncUps(atOffsets: [0]))) {
            $0.list.syncUps = [second]
        }
        #expect(harness.saved == [second])
    }
}
