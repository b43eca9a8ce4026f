// One destination of the Navigation article's note screen (its editor) presented in each style
// SwiftUI has for an item: a popover, a full-screen cover (iOS), a push. The same binding,
// `store.binding(state:action:dismiss:)`, serves each; this file checks that they compile,
// against SwiftUI where it exists and against the SwiftUIStandIns module on Linux.
#if canImport(SwiftUI)
import SwiftUI
#else
import SwiftUIStandIns
#endif
import Lockstep

struct NoteEditorPopoverView: View {
    let store: Store<NoteState, NoteAction>

    var body: some View {
        Button("Edit") { store.send(.editTapped) }
            .popover(item: store.binding(
                state: \.destination?.editor, action: { .destination(.presented(.editor($0))) }, dismiss: .destination(.dismiss)
            )) { editor in
                NoteEditorView(store: editor)
            }
    }
}

#if os(iOS) || !canImport(SwiftUI)
struct NoteEditorCoverView: View {
    let store: Store<NoteState, NoteAction>

    var body: some View {
        Button("Edit") { store.send(.editTapped) }
            .fullScreenCover(item: store.binding(
                state: \.destination?.editor, action: { .destination(.presented(.editor($0))) }, dismiss: .destination(.dismiss)
            )) { editor in
                NoteEditorView(store: editor)
            }
    }
}
#endif

struct NoteEditorPushView: View {
    let store: Store<NoteState, NoteAction>

    var body: some View {
        NavigationStack {
            Button("Edit") { store.send(.editTapped) }
                .navigationDestination(item: store.binding(
                    state: \.destination?.editor, action: { .destination(.presented(.editor($0))) }, dismiss: .destination(.dismiss)
                )) { editor in
                    NoteEditorView(store: editor)
                }
        }
    }
}
