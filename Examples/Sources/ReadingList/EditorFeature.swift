import Lockstep
import LockstepQuery

/// The editor of one book, presented over the list: the title being typed, and the book's
/// details from the catalog.
public struct EditorState: Equatable, Sendable, Identifiable {
    /// The id of the book being edited; a new book presents a new editor.
    public var id: Int64
    /// The title as typed.
    public var draft: String
    /// The details the catalog gave, once loaded.
    public var details: BookDetails?
    /// Whether the details are loading.
    public var isLoading = false

    /// An editor of `book`.
    public init(book: Book) {
        self.id = book.id
        self.draft = book.title
    }
}

/// What happens in the editor. The title field binds to `draft` with the binding action.
public enum EditorAction: BindableAction, Equatable, Sendable {
    /// The editor appeared: follow the book's details query.
    case appeared
    /// The book's details query changed: loading, loaded or failed. The first is the query's
    /// state when the editor subscribes.
    case detailsChanged(BookDetailsStatus)
    /// The user typed a title: a binding of `draft`.
    case binding(BindingAction<EditorState>)
    /// Save the draft and close the editor.
    case saveTapped
    /// Close the editor without saving.
    case cancelTapped
}

/// The editor's own reducer.
let editorCoreReducer: InPlaceReducer<EditorState, EditorAction> = { editor, action in
    switch action {
    case .appeared:
        editor.isLoading = true
    case .detailsChanged(let query):
        // The bridge's first state, before the fetch starts: the editor stays loading.
        guard !query.isBlank else { break }
        editor.isLoading = query.isLoading
        editor.details = query.details
    case .binding, .saveTapped, .cancelTapped:
        break
    }
}

/// The editor's reducer: the bindings' (the title field sets `draft`), then the editor's own.
public let editorReducer: InPlaceReducer<EditorState, EditorAction> = combineReducers(bindingReducer(), editorCoreReducer)

/// The editor's side effect: following the details query of the book as it was when the
/// editor appeared, with a bridge the editor owns, so that a row loading the same details
/// shares the fetch.
///
/// Lifted with the app's `ifLet`, its work is cancelled when the editor is dismissed, which
/// ends the bridge and its subscription to the query.
public func editorMiddleware(
    editor: EditorState,
    action: EditorAction,
    services: ReadingListServices,
    dispatch: Dispatcher<EditorAction>
) async {
    guard action == .appeared else { return }
    await services.queries.store(for: BookDetailsQuery(title: editor.draft))
        .bridge(to: dispatch) { .detailsChanged(BookDetailsStatus($0)) }
}

/// What the editor shows and does, written against any store of the editor.
@MainActor
public final class EditorModel {
    private let store: any StoreProtocol<EditorState, EditorAction>

    /// A model of the editor that `store` holds.
    public init(store: some StoreProtocol<EditorState, EditorAction>) {
        self.store = store
    }

    /// The title as typed.
    public var draft: String { store.state.draft }

    /// The user typed `title`.
    public func titleChanged(_ title: String) {
        store.send(.binding(.set(\.draft, title)))
    }

    /// Saves the draft and closes the editor; returns once the save is finished.
    public func save() async {
        await store.dispatch(.saveTapped)
    }

    /// Closes the editor without saving.
    public func cancel() async {
        await store.dispatch(.cancelTapped)
    }
}

/// The editor as one feature: its reducer and its side effects.
public let editorFeature = Feature<EditorState, EditorAction, ReadingListServices>(reducer: editorReducer) {
    editorMiddleware
}
