import Lockstep
import LockstepQuery

/// What the reading list's side effects use: the database, the remote catalog, the query client
/// that caches the catalog's answers, and the clock that debounces and throttles.
public struct ReadingListServices: Sendable {
    /// The database of the list.
    public var library: any Library
    /// The remote catalog.
    public var catalog: any Catalog
    /// The clock of the search's debounce and the refresh's throttle: `ContinuousClock()` in
    /// the app, a manual clock in tests.
    public var clock: any Clock<Duration>
    /// The app's query client: it runs ``BookDetailsQuery`` against `catalog` and shares a fetch
    /// in flight between the rows and the editor.
    public var queries: OperationClient

    /// Creates the services, and puts `catalog` in the context of the queries `queries` runs.
    public init(library: any Library, catalog: any Catalog, clock: any Clock<Duration>, queries: OperationClient) {
        self.library = library
        self.catalog = catalog
        self.clock = clock
        self.queries = queries
        queries.defaultContext[CatalogKey.self] = catalog
    }
}

/// The whole app: each feature's state, and the editor while it is presented.
public struct AppState: Equatable, Sendable {
    /// The list of books.
    public var list = BookListState()
    /// The search of the catalog.
    public var search = SearchState()
    /// The editor, while presented.
    public var editor: EditorState?

    /// The app with an empty list.
    public init(list: BookListState = BookListState()) {
        self.list = list
    }
}

/// Every action of the app: one case per feature, and the presentation of the editor.
public enum AppAction: Equatable, Sendable {
    /// An action of the list.
    case list(BookListAction)
    /// An action of the search.
    case search(SearchAction)
    /// An action of the editor.
    case editor(EditorAction)
    /// Present the editor of the book with this id.
    case editBook(id: Int64)
    /// Dismiss the editor.
    case dismissEditor

    /// The list action of a `list` action.
    public var list: BookListAction? {
        if case .list(let action) = self { action } else { nil }
    }

    /// The search action of a `search` action.
    public var search: SearchAction? {
        if case .search(let action) = self { action } else { nil }
    }

    /// The editor action of an `editor` action.
    public var editor: EditorAction? {
        if case .editor(let action) = self { action } else { nil }
    }
}

/// The app's own changes: presenting and dismissing the editor.
let presentationReducer: InPlaceReducer<AppState, AppAction> = { state, action in
    switch action {
    case .editBook(let id):
        state.editor = state.list.rows[id: id].map { EditorState(book: $0.book) }
    case .dismissEditor:
        state.editor = nil
    case .list, .search, .editor:
        break
    }
}


/// What the editor's buttons do to the rest of the app: saving closes the editor and renames
/// the book's row, which shows the new title at once and saves it; cancelling closes it.
public func presentationMiddleware(
    state: AppState,
    action: AppAction,
    dispatch: Dispatcher<AppAction>
) async {
    switch action {
    case .editor(.saveTapped):
        guard let editor = state.editor else { return }
        await dispatch(.dismissEditor)
        await dispatch(.list(.row(id: editor.id, action: .rename(editor.draft))))
    case .editor(.cancelTapped):
        await dispatch(.dismissEditor)
    default:
        break
    }
}

/// The app: its own presentation of the editor, and each feature lifted to its part of the state
/// in one call, reducer and side effects together.
public let appFeature = Feature<AppState, AppAction, ReadingListServices>(reducer: presentationReducer) {
    presentationMiddleware
}
.scope(state: \.list, action: \.list, embed: AppAction.list) { bookListFeature }
.scope(state: \.search, action: \.search, embed: AppAction.search) { searchFeature }
.ifLet(state: \.editor, action: \.editor, embed: AppAction.editor) { editorFeature }

/// A store of the app.
@MainActor
public func makeStore(services: ReadingListServices, state: AppState = AppState()) -> Store<AppState, AppAction> {
    Store(state: state, feature: appFeature, services: services)
}

/// The app's screens, each a model on its feature's child store.
@MainActor
public final class ReadingListModel {
    /// The app's store.
    public let store: Store<AppState, AppAction>
    /// The list, on the list's child store.
    public let list: BookListModel
    /// The search, on the search's child store.
    public let search: SearchModel

    /// The screens of the app that `store` holds.
    public init(store: Store<AppState, AppAction>) {
        self.store = store
        self.list = BookListModel(store: store.scope(state: \.list, action: AppAction.list))
        self.search = SearchModel(store: store.scope(state: \.search, action: AppAction.search))
    }

    /// Presents the editor of the book `id`, and returns its model on the editor's child store,
    /// or `nil` when the list has no such book.
    public func edit(_ id: Int64) async -> EditorModel? {
        await store.dispatch(.editBook(id: id))
        return store.scope(state: \.editor, action: AppAction.editor).map { EditorModel(store: $0) }
    }
}
