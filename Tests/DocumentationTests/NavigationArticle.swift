import Lockstep

// The Navigation article's note screen: one optional enum of destinations (an editor in a sheet,
// an alert, a confirmation dialog), each lifted with one call, and an editor that dismisses
// itself. Written without case key paths; LockstepCasePathsTests has the same shapes with
// @CasePathable.

struct NoteEditorState: Equatable, Sendable {
    var draft: String
}

enum NoteEditorAction: Equatable, Sendable {
    case draftChanged(String)
    case saveTapped
    case saved(String)
}

enum NoteAlertAction: Equatable, Sendable {
    case confirmDeletion
}

enum ShareTarget: Equatable, Sendable {
    case link
    case mail
}

enum NoteDestination: Equatable, Sendable {
    case editor(NoteEditorState)
    case alert(AlertState<NoteAlertAction>)
    case shareDialog(ConfirmationDialogState<ShareTarget>)

    var editor: NoteEditorState? {
        if case .editor(let editor) = self { editor } else { nil }
    }

    var alert: AlertState<NoteAlertAction>? {
        if case .alert(let alert) = self { alert } else { nil }
    }

    var shareDialog: ConfirmationDialogState<ShareTarget>? {
        if case .shareDialog(let dialog) = self { dialog } else { nil }
    }
}

enum NoteDestinationAction: Equatable, Sendable {
    case editor(NoteEditorAction)
    case alert(NoteAlertAction)
    case shareDialog(ShareTarget)

    var editor: NoteEditorAction? {
        if case .editor(let action) = self { action } else { nil }
    }
}

struct NoteState: Equatable, Sendable {
    var text: String
    var isDeleted = false
    var sharedTo: ShareTarget?
    var destination: NoteDestination?
}

enum NoteAction: Equatable, Sendable {
    case editTapped
    case deleteTapped
    case shareTapped
    case destination(PresentationAction<NoteDestinationAction>)

    var destination: PresentationAction<NoteDestinationAction>? {
        if case .destination(let action) = self { action } else { nil }
    }
}

extension AlertState where Action == NoteAlertAction {
    static let deleteNote = AlertState {
        TextState("Delete this note?")
    } actions: {
        ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
        ButtonState(role: .cancel) { TextState("Cancel") }
    } message: {
        TextState("It can't be undone.")
    }
}

extension ConfirmationDialogState where Action == ShareTarget {
    static let share = ConfirmationDialogState(titleVisibility: .visible) {
        TextState("Share this note")
    } actions: {
        ButtonState(action: .link) { TextState("Copy link") }
        ButtonState(action: .mail) { TextState("Mail") }
        ButtonState(role: .cancel) { TextState("Cancel") }
    }
}

let noteEditorReducer: InPlaceReducer<NoteEditorState, NoteEditorAction> = { editor, action in
    if case .draftChanged(let draft) = action {
        editor.draft = draft
    }
}

let noteEditorMiddleware: PlainMiddleware<NoteEditorState, NoteEditorAction> = { editor, action, dispatch in
    guard case .saveTapped = action else { return }
    await dispatch(.saved(editor.draft))
    await dispatch.dismiss()
}

let noteDestinationReducer: InPlaceReducer<NoteDestination, NoteDestinationAction> = combineReducers(
    scopeReducer(noteEditorReducer, case: { $0.editor }, embed: NoteDestination.editor, action: { $0.editor })
)

@SideEffectBuilder<NoteDestination, NoteDestinationAction, Void>
var noteDestinationSideEffects: [SideEffect<NoteDestination, NoteDestinationAction, Void>] {
    scopeMiddleware(noteEditorMiddleware, case: { $0.editor }, action: { $0.editor }, embed: NoteDestinationAction.editor)
}

let noteCoreReducer: InPlaceReducer<NoteState, NoteAction> = { state, action in
    switch action {
    case .editTapped:
        state.destination = .editor(NoteEditorState(draft: state.text))
    case .deleteTapped:
        state.destination = .alert(.deleteNote)
    case .shareTapped:
        state.destination = .shareDialog(.share)
    case .destination(.presented(.alert(.confirmDeletion))):
        state.isDeleted = true
    case .destination(.presented(.shareDialog(let target))):
        state.sharedTo = target
    case .destination(.presented(.editor(.saved(let draft)))):
        state.text = draft
    case .destination:
        break
    }
}

let noteReducer: InPlaceReducer<NoteState, NoteAction> = combineReducers(
    noteCoreReducer,
    ifLetReducer(noteDestinationReducer, state: \NoteState.destination, action: { $0.destination })
)

@SideEffectBuilder<NoteState, NoteAction, Void>
var noteSideEffects: [SideEffect<NoteState, NoteAction, Void>] {
    ifLetMiddleware(
        noteDestinationSideEffects, state: \NoteState.destination, action: { $0.destination }, embed: NoteAction.destination)
}
