// The views of the Navigation article's note screen: an editor in a sheet, an alert and a
// confirmation dialog, all from one optional enum of destinations. They compile against SwiftUI
// where it exists, and against the SwiftUIStandIns module on Linux.
#if canImport(SwiftUI)
import SwiftUI
#else
import SwiftUIStandIns
#endif
import Lockstep

struct NoteView: View {
    let store: Store<NoteState, NoteAction>

    var body: some View {
        List {
            Text(store.text)
            Button("Edit") { store.send(.editTapped) }
            Button("Share") { store.send(.shareTapped) }
            Button("Delete") { store.send(.deleteTapped) }
        }
        .sheet(item: store.binding(
            state: \.destination?.editor, action: { .destination(.presented(.editor($0))) }, dismiss: .destination(.dismiss)
        )) { editor in
            NoteEditorView(store: editor)
        }
        .alert(store, state: \.destination?.alert, send: { .destination(.presented(.alert($0))) }, dismiss: .destination(.dismiss))
        .confirmationDialog(
            store, state: \.destination?.shareDialog, send: { .destination(.presented(.shareDialog($0))) },
            dismiss: .destination(.dismiss))
    }
}

struct NoteEditorView: View {
    let store: ChildStore<NoteEditorState, NoteEditorAction>

    var body: some View {
        List {
            TextField("Note", text: store.binding(\.draft, send: NoteEditorAction.draftChanged))
            Button("Save") { store.send(.saveTapped) }
        }
    }
}
