#if canImport(SwiftUI)
import SwiftUI
#else
import SwiftUIStandIns
#endif
import Lockstep
import LockstepTesting
import Testing

/// The Navigation article's note screen, driven by a test store as the article shows.
@MainActor
@Suite("The Navigation article")
struct NavigationArticleTests {
    @Test("A button of the alert sends its action and closes the alert, with no code in the reducer")
    func alertButtonSendsItsActionAndCloses() async {
        let store = TestStore(state: NoteState(text: "Milk"), reducer: noteReducer) { noteSideEffects }

        await store.send(.deleteTapped) {
            $0.destination = .alert(.deleteNote)
        }
        await store.send(.destination(.presented(.alert(.confirmDeletion)))) {
            $0.isDeleted = true
            $0.destination = nil
        }
    }

    @Test("Cancel closes the alert and changes nothing else")
    func alertCancelCloses() async {
        let store = TestStore(state: NoteState(text: "Milk"), reducer: noteReducer) { noteSideEffects }
        await store.send(.deleteTapped) { $0.destination = .alert(.deleteNote) }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
        #expect(!store.state.isDeleted)
    }

    @Test("A button of the dialog sends its action with its value and closes the dialog")
    func dialogButton() async {
        let store = TestStore(state: NoteState(text: "Milk"), reducer: noteReducer) { noteSideEffects }
        await store.send(.shareTapped) { $0.destination = .shareDialog(.share) }
        await store.send(.destination(.presented(.shareDialog(.mail)))) {
            $0.sharedTo = .mail
            $0.destination = nil
        }
    }

    @Test("The editor's actions reach its case; saving sends the draft and the editor dismisses itself")
    func editorDismissesItself() async {
        let store = TestStore(state: NoteState(text: "Milk"), reducer: noteReducer) { noteSideEffects }

        await store.send(.editTapped) {
            $0.destination = .editor(NoteEditorState(draft: "Milk"))
        }
        await store.send(.destination(.presented(.editor(.draftChanged("Milk, eggs"))))) {
            $0.destination = .editor(NoteEditorState(draft: "Milk, eggs"))
        }
        await store.send(.destination(.presented(.editor(.saveTapped))))
        await store.receive(.destination(.presented(.editor(.saved("Milk, eggs"))))) {
            $0.text = "Milk, eggs"
        }
        await store.receive(.destination(.dismiss)) {
            $0.destination = nil
        }
    }

    @Test("The alert and the dialog are values: equal when their texts, roles and actions are")
    func alertsAreValues() {
        #expect(AlertState<NoteAlertAction>.deleteNote == .deleteNote)
        #expect(AlertState<NoteAlertAction>.deleteNote.buttons.map(\.action) == [.confirmDeletion, nil])
        #expect(AlertState<NoteAlertAction>.deleteNote.buttons.map(\.role) == [.destructive, .cancel])
        #expect(AlertState<NoteAlertAction>.deleteNote.message == "It can't be undone.")
        var other = AlertState<NoteAlertAction>.deleteNote
        other.buttons[0].label = "Remove"
        #expect(other != .deleteNote)
        #expect(ConfirmationDialogState<ShareTarget>.share.buttons.map(\.id) == [0, 1, 2])
        #expect(ConfirmationDialogState<ShareTarget>.share.titleVisibility == .visible)
    }
}

/// The bindings the note screen's alert uses, written as SwiftUI writes them.
@MainActor
@Suite("The Navigation article's alert bindings")
struct NavigationArticleBindingTests {
    @Test("A tapped button sends its action; the dismissal SwiftUI writes next sends nothing")
    func tappedButtonThenDismissal() {
        let store = Store(state: NoteState(text: "Milk"), reducer: noteReducer)
        let alert = StoreBinding(store, presenting: \.destination?.alert, dismiss: .destination(.dismiss))
        store.send(.deleteTapped)
        let deleteButton = alert.value?.buttons[0]
        #expect(deleteButton?.label == "Delete")

        store.tap(deleteButton!, embed: { .destination(.presented(.alert($0))) })
        #expect(store.state.isDeleted)
        #expect(alert.value == nil)
        alert.value = nil
        #expect(store.state.destination == nil)
    }

    @Test("A button without an action sends nothing; the dismissal closes the alert")
    func cancelButtonThenDismissal() {
        let store = Store(state: NoteState(text: "Milk"), reducer: noteReducer)
        let alert = StoreBinding(store, presenting: \.destination?.alert, dismiss: .destination(.dismiss))
        store.send(.deleteTapped)
        store.tap(alert.value!.buttons[1], embed: { .destination(.presented(.alert($0))) })
        #expect(alert.value == .deleteNote)
        alert.value = nil
        #expect(alert.value == nil)
        #expect(!store.state.isDeleted)
    }

    @Test("The editor's sheet binding shows the editor case of the destination alone")
    func editorSheetShowsItsCase() {
        let store = Store(state: NoteState(text: "Milk"), reducer: noteReducer)
        let sheet = store.binding(
            state: \.destination?.editor, action: { .destination(.presented(.editor($0))) }, dismiss: .destination(.dismiss))
        store.send(.deleteTapped)
        #expect(sheet.wrappedValue == nil)
        store.send(.editTapped)
        #expect(sheet.wrappedValue?.draft == "Milk")
        sheet.wrappedValue = nil
        #expect(store.state.destination == nil)
    }
}
