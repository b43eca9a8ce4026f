import Lockstep

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

/// What happens in the editor.
public enum EditorAction: Equatable, Sendable {
    /// The editor appeared: load the book's details.
    case appeared
    /// The catalog answered.
    case detailsLoaded(Result<BookDetails, CatalogError>)
    /// The user typed a title.
    case draftChanged(String)
    /// Save the draft and close the editor.
    case saveTapped
    /// Close the editor without saving.
    case cancelTapped
}

/// The editor's reducer.
public let editorReducer: InPlaceReducer<EditorState, EditorAction> = { editor, action in
    switch action {
    case .appeared:
        editor.isLoading = true
    case .detailsLoaded(let result):
        editor.isLoading = false
        editor.details = try? result.get()
    case .draftChanged(let draft):
        editor.draft = draft
    case .saveTapped, .cancelTapped:
        break
    }
}

/// The editor's side effect: loading the details of the book as it was when the editor
/// appeared, through the book's details query, so that a row loading the same details shares
/// the fetch.
///
/// Lifted with `ifLetMiddleware`, its work is cancelled when the editor is dismissed.
public func editorMiddleware(
    editor: EditorState,
    action: EditorAction,
    services: ReadingListServices,
    dispatch: Dispatcher<EditorAction>
) async {
    guard action == .appeared else { return }
    var loaded = BookDetailsStatus()
    await followDetails(of: editor.draft, in: services.queries) { status in
        loaded = status
    }
    guard !Task.isCancelled else { return }
    let result: Result<BookDetails, CatalogError> =
        if let error = loaded.error { .failure(error) } else if let details = loaded.details { .success(details) } else { .failure(.unavailable) }
    await dispatch(.detailsLoaded(result))
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
        store.send(.draftChanged(title))
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
