#if canImport(SwiftUI) || LOCKSTEP_SWIFTUI_STAND_INS
#if canImport(SwiftUI)
import SwiftUI
#else
import SwiftUIStandIns
#endif
import Lockstep

/// The list of sync-ups, and the form that adds one in a sheet.
struct SyncUpsListView: View {
    let store: ChildStore<SyncUpsListState, SyncUpsListAction>

    var body: some View {
        List {
            ForEach(store.syncUps) { syncUp in
                Button("\(syncUp.title), \(syncUp.attendees.count) attendees, \(syncUp.minutes) min") {
                    store.send(.syncUpTapped(id: syncUp.id))
                }
            }
            .onDelete { store.send(.deleteSyncUps(atOffsets: $0)) }
        }
        .navigationTitle("Daily Sync-ups")
        .toolbar {
            ToolbarItem {
                Button("Add") { store.send(.addSyncUpTapped) }
            }
        }
        .sheet(item: store.binding(state: \.addSyncUp, action: { .addSyncUp(.presented($0)) }, dismiss: .addSyncUp(.dismiss))) { form in
            NavigationStack {
                SyncUpFormView(store: form)
                    .navigationTitle("New sync-up")
                    .toolbar {
                        ToolbarItem(placement: .cancellationAction) {
                            Button("Dismiss") { store.send(.dismissAddSyncUpTapped) }
                        }
                        ToolbarItem(placement: .confirmationAction) {
                            Button("Add") { store.send(.confirmAddSyncUpTapped) }
                        }
                    }
            }
        }
        .alert(store, state: \.alert, dismiss: .alert(.dismiss))
    }
}
#endif
