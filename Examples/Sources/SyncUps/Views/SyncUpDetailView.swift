#if canImport(SwiftUI) || LOCKSTEP_SWIFTUI_STAND_INS
#if canImport(SwiftUI)
import SwiftUI
#else
import SwiftUIStandIns
#endif
import Lockstep

/// A sync-up's screen: the form in a sheet and the alerts, all from one optional destination.
struct SyncUpDetailView: View {
    let store: ChildStore<SyncUpDetailState, SyncUpDetailAction>

    var body: some View {
        List {
            Section("Sync-up info") {
                Button("Start meeting") { store.send(.startMeetingTapped) }
                Text("Length: \(store.syncUp.minutes) min")
                Text("Theme: \(store.syncUp.theme.name)")
            }
            if !store.syncUp.meetings.isEmpty {
                Section("Past meetings") {
                    ForEach(store.syncUp.meetings) { meeting in
                        Button(meeting.date.formatted(date: .numeric, time: .shortened)) {
                            store.send(.meetingTapped(id: meeting.id))
                        }
                    }
                    .onDelete { store.send(.deleteMeetings(atOffsets: $0)) }
                }
            }
            Section("Attendees") {
                ForEach(store.syncUp.attendees) { attendee in
                    Text(attendee.name)
                }
            }
            Button(role: .destructive) {
                store.send(.deleteTapped)
            } label: {
                Text("Delete")
            }
        }
        .navigationTitle(store.syncUp.title)
        .toolbar {
            ToolbarItem {
                Button("Edit") { store.send(.editTapped) }
            }
        }
        .alert(store, state: \.destination?.alert, send: { .destination(.presented(.alert($0))) }, dismiss: .destination(.dismiss))
        .sheet(item: store.binding(
            state: \.destination?.edit, action: { .destination(.presented(.edit($0))) }, dismiss: .destination(.dismiss)
        )) { form in
            NavigationStack {
                SyncUpFormView(store: form)
                    .navigationTitle(store.syncUp.title)
                    .toolbar {
                        ToolbarItem(placement: .cancellationAction) {
                            Button("Cancel") { store.send(.cancelEditTapped) }
                        }
                        ToolbarItem(placement: .confirmationAction) {
                            Button("Done") { store.send(.doneEditingTapped) }
                        }
                    }
            }
        }
    }
}

/// A past meeting: who attended and what was said.
struct MeetingView: View {
    let meeting: Meeting
    let syncUp: SyncUp

    var body: some View {
        List {
            Section("Attendees") {
                ForEach(syncUp.attendees) { attendee in
                    Text(attendee.name)
                }
            }
            Section("Transcript") {
                Text(meeting.transcript)
            }
        }
        .navigationTitle(meeting.date.formatted(date: .numeric, time: .shortened))
    }
}
#endif
