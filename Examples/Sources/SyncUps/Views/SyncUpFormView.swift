#if canImport(SwiftUI) || LOCKSTEP_SWIFTUI_STAND_INS
#if canImport(SwiftUI)
import SwiftUI
#else
import SwiftUIStandIns
#endif
import Lockstep

/// The form of a sync-up: its title, length and attendees.
struct SyncUpFormView: View {
    let store: ChildStore<SyncUpFormState, SyncUpFormAction>

    var body: some View {
        List {
            Section("Sync-up info") {
                TextField("Title", text: store.binding(\.syncUp.title))
                Stepper("\(store.syncUp.minutes) min", value: store.binding(\.syncUp.minutes), in: 1...30)
            }
            Section("Attendees") {
                ForEach(store.syncUp.attendees) { attendee in
                    TextField("Name", text: nameBinding(of: attendee.id))
                }
                .onDelete { store.send(.deleteAttendees(atOffsets: $0)) }
                Button("New attendee") { store.send(.addAttendeeTapped) }
            }
        }
    }

    /// The name of one attendee, whose edits send `attendeeNameChanged`.
    func nameBinding(of id: Attendee.ID) -> Binding<String> {
        Binding(StoreBinding(
            get: { store.syncUp.attendees[id: id]?.name ?? "" },
            set: { store.send(.attendeeNameChanged(id: id, name: $0)) }))
    }
}
#endif
