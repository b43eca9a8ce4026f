import Foundation
import Dependencies
import IdentifiedCollections
import LockstepDependencies
import LockstepTesting
import SyncUps
import Testing

/// The form on its own: attendees added with an id from `@Dependency(\.uuid)`, and the keyboard's focus.
@MainActor
@Suite("SyncUps: the form")
struct SyncUpFormTests {
    func makeStore(_ syncUp: SyncUp, focus: SyncUpFormState.Field? = .title) -> TestStore<SyncUpFormState, SyncUpFormAction> {
        withDependencies {
            $0.uuid = .incrementing
        } store: {
            TestStore(state: SyncUpFormState(focus: focus, syncUp: syncUp), reducer: syncUpFormReducer)
        }
    }

    @Test("Adding an attendee gives it a new id and the focus")
    func addAttendee() async {
        let store = makeStore(SyncUp(id: UUID(100)))
        await store.send(.addAttendeeTapped) {
            $0.syncUp.attendees = [Attendee(id: UUID(0))]
            $0.focus = .attendee(UUID(0))
        }
    }

    @Test("Removing the focused attendee moves the focus to the next one")
    func removeFocusedAttendee() async {
        let store = makeStore(.design, focus: .attendee(UUID(101)))
        await store.send(.deleteAttendees(atOffsets: [0])) {
            $0.syncUp.attendees.remove(id: UUID(101))
            $0.focus = .attendee(UUID(102))
        }
    }

    @Test("Removing every attendee keeps a new, blank one")
    func removeAllAttendees() async {
        let store = makeStore(SyncUp(id: UUID(100), attendees: [Attendee(id: UUID(101), name: "Blob")]))
        await store.send(.deleteAttendees(atOffsets: [0])) {
            $0.syncUp.attendees = [Attendee(id: UUID(0))]
            $0.focus = .attendee(UUID(0))
        }
    }
}
