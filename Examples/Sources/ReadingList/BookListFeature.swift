import IdentifiedCollections
import Lockstep

// Row actions (the list's forEach lift) and row stores find a row through
// IdentifiedArray's own index(id:), in constant time, instead of searching the rows: Lockstep
// makes IdentifiedArray a RowsIndexedByID collection.

/// The list of books: its rows, loaded from the database.
public struct BookListState: Equatable, Sendable {
    /// The rows, by book id.
    public var rows: IdentifiedArrayOf<BookRowState> = []
    /// Whether the list is loading.
    public var isLoading = false
    /// Why the last load, add or removal failed.
    public var errorMessage: String?

    /// An empty list.
    public init(rows: IdentifiedArrayOf<BookRowState> = []) {
        self.rows = rows
    }
}

/// What happens to the list.
public enum BookListAction: Equatable, Sendable {
    /// Load the books from the database.
    case load
    /// Load again, at most once a second.
    case refresh
    /// The database answered the load.
    case loaded(Result<[Book], LibraryError>)
    /// Add a book with this title.
    case add(String)
    /// The database answered the add.
    case added(Result<Book, LibraryError>)
    /// Remove the book with this id: it leaves the list at once.
    case remove(id: Int64)
    /// The database answered the removal.
    case removed(Result<Int64, LibraryError>)
    /// An action of one row.
    case row(id: Int64, action: BookRowAction)

    /// The row id and row action of a `row` action.
    public var row: (Int64, BookRowAction)? {
        if case .row(let id, let action) = self { (id, action) } else { nil }
    }
}

/// The list's own changes, before its rows' reducer.
let bookListCoreReducer: InPlaceReducer<BookListState, BookListAction> = { list, action in
    switch action {
    case .load:
        list.isLoading = true
        list.errorMessage = nil
    case .loaded(.success(let books)):
        list.isLoading = false
        list.rows = IdentifiedArray(uniqueElements: books.map { book in
            var row = list.rows[id: book.id] ?? BookRowState(book: book)
            if !row.isSaving {
                row.book = book
                row.savedTitle = book.title
            }
            return row
        })
    case .loaded(.failure(let error)), .added(.failure(let error)), .removed(.failure(let error)):
        list.isLoading = false
        list.errorMessage = error.description
    case .added(.success(let book)):
        list.rows.append(BookRowState(book: book))
    case .remove(let id):
        list.rows.remove(id: id)
    case .refresh, .add, .removed(.success), .row:
        break
    }
}


/// Names the throttled refresh.
private enum RefreshID: Hashable, Sendable { case refresh }

/// The list's side effects: loading, adding and removing books in the database.
public func bookListMiddleware(
    list: BookListState,
    action: BookListAction,
    services: ReadingListServices,
    dispatch: Dispatcher<BookListAction>
) async {
    let library = services.library
    switch action {
    case .load:
        await dispatch(BookListAction.loaded) { () async throws(LibraryError) in try await library.books() }
    case .refresh:
        await dispatch.throttle(id: RefreshID.refresh, for: .seconds(1), clock: services.clock, latest: false) {
            await dispatch(.load)
        }
    case .add(let title):
        await dispatch(BookListAction.added) { () async throws(LibraryError) in try await library.add(title: title) }
    case .remove(let id):
        await dispatch(BookListAction.removed) { () async throws(LibraryError) in
            try await library.remove(id)
            return id
        }
    case .loaded, .added, .removed, .row:
        break
    }
}

/// The list as one feature: its own reducer and middleware, and the row's feature lifted to each
/// row in one call: the row's reducer runs on its row, and its work is cancelled when the row
/// is removed.
public let bookListFeature = Feature<BookListState, BookListAction, ReadingListServices>(
    reducer: bookListCoreReducer
) {
    bookListMiddleware
}
.forEach(state: \.rows, action: \.row, embed: BookListAction.row) { bookRowFeature }

/// What the list shows, written against any store of the list; each row gets a model of its
/// own on the row's child store.
@MainActor
public final class BookListModel {
    private let store: any StoreProtocol<BookListState, BookListAction>

    /// A model of the list that `store` holds.
    public init(store: some StoreProtocol<BookListState, BookListAction>) {
        self.store = store
    }

    /// A model per row, on the row's child store, in order.
    public var rows: [BookRowModel] {
        store.scope(forEach: \.rows, action: BookListAction.row).map { BookRowModel(store: $0) }
    }

    /// The lines the list shows.
    public var lines: [String] {
        if let error = store.state.errorMessage {
            return ["error: \(error)"]
        }
        let rows = self.rows
        return rows.isEmpty ? ["The reading list is empty."] : rows.map(\.line)
    }

    /// Loads the list, and returns once it is loaded.
    public func load() async {
        await store.dispatch(.load)
    }

    /// Loads every row's details at once, and returns once they are all there.
    public func loadAllDetails() async {
        await withTaskGroup(of: Void.self) { group in
            for row in rows {
                group.addTask { await row.loadDetails() }
            }
        }
    }
}
