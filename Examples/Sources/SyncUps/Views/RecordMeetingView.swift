#if canImport(SwiftUI) || LOCKSTEP_SWIFTUI_STAND_INS
#if canImport(SwiftUI)
import SwiftUI
#else
import SwiftUIStandIns
#endif
import Lockstep

/// The meeting in progress: the time, the speaker, the transcript, and the alert of ending early.
struct RecordMeetingView: View {
    let store: ChildStore<RecordMeetingState, RecordMeetingAction>

    var body: some View {
        List {
            Text("\(store.secondsElapsed) s elapsed, \(store.durationRemaining.components.seconds) s left")
            Text("Speaker \(store.speakerIndex + 1) of \(store.syncUp.attendees.count)")
            Text(store.transcript)
            Button("Next speaker") { store.send(.nextTapped) }
            Button("End meeting") { store.send(.endMeetingTapped) }
        }
        .navigationTitle(store.syncUp.title)
        .task { await store.dispatch(.onTask) }
        .alert(store, state: \.alert, send: { .alert(.presented($0)) }, dismiss: .alert(.dismiss))
    }
}
#endif
