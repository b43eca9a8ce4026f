// The SyncUps views. They compile against SwiftUI where it exists; on Linux the main package's
// SyncUpsViews target compiles them (through a symbolic link to this folder) against the SwiftUI
// stand-ins, with LOCKSTEP_SWIFTUI_STAND_INS defined. The examples package alone leaves them out
// on Linux.
#if canImport(SwiftUI) || LOCKSTEP_SWIFTUI_STAND_INS
#if canImport(SwiftUI)
import SwiftUI
#else
import SwiftUIStandIns
#endif
import Lockstep
import LockstepCasePaths

/// The app's root: the list, and the screen of each kind the stack pushes on it.
public struct AppView: View {
    let store: Store<AppState, AppAction>

    /// The view of the app's store.
    public init(store: Store<AppState, AppAction>) {
        self.store = store
    }

    /// The stack, with the list at its root.
    public var body: some View {
        NavigationStack(path: store.binding(stack: \.path, action: AppAction.path)) {
            SyncUpsListView(store: store.scope(state: \.list, action: \.list))
                .navigationDestination(for: StackElementID.self) { id in
                    if let screen = store.scope(state: \.path, id: id, action: \.path) {
                        PathView(store: screen)
                    }
                }
        }
    }
}

/// A screen of the stack: the view of its kind, through the case's child store.
struct PathView: View {
    let store: ChildStore<Path, PathAction>

    var body: some View {
        if let detail = store.scope(state: \.detail, action: \.detail) {
            SyncUpDetailView(store: detail)
        } else if let record = store.scope(state: \.record, action: \.record) {
            RecordMeetingView(store: record)
        } else if let meeting = store.meeting {
            MeetingView(meeting: meeting.meeting, syncUp: meeting.syncUp)
        }
    }
}
#endif
