import Lockstep
import LockstepQuery

/// One row of the list: a book, its details from the catalog, and its rename in flight.
public struct BookRowState: Equatable, Sendable, Identifiable {
    /// The book as the list shows it: with a rename in flight, already the new title.
    public var book: Book
    /// The title the database has, that a failed rename goes back to.
    public var savedTitle: String
    /// The details the catalog gave, once loaded.
    public var details: BookDetails?
    /// Whether the details are loading.
    public var isLoadingDetails = false
    /// Whether a rename is being saved.
    public var isSaving = false
    /// Why the last load or rename failed.
    public var errorMessage: String?

    /// The row of `book`, as the database has it.
    public init(book: Book) {
        self.book = book
        self.savedTitle = book.title
    }

    /// The book's id.
    public var id: Int64 { book.id }
}

/// What happens to one row.
public enum BookRowAction: Equatable, Sendable {
    /// Load the book's details from the catalog, through the book's details query.
    case loadDetails
    /// The book's details query changed: loading, loaded or failed. The first is the query's
    /// state when the row subscribes.
    case detailsChanged(BookDetailsStatus)
    /// Give the book a new title: shown at once, then saved.
    case rename(String)
    /// The database answered the rename.
    case renameFinished(Result<Book, LibraryError>)
}

/// The row's reducer. A rename is optimistic: the new title shows at once, and goes back to the
/// saved one if the database refuses it.
public let bookRowReducer: InPlaceReducer<BookRowState, BookRowAction> = { row, action in
    switch action {
    case .loadDetails:
        row.isLoadingDetails = true
        row.errorMessage = nil
    case .detailsChanged(let query):
        // The bridge's first state, before the fetch starts: the row stays loading.
        guard !query.isBlank else { break }
        row.details = query.details
        row.isLoadingDetails = query.isLoading
        if let error = query.error, !query.isLoading {
            row.errorMessage = error.description
        }
    case .rename(let title):
        row.book.title = title
        row.isSaving = true
        row.errorMessage = nil
    case .renameFinished(.success(let book)):
        row.book = book
        row.savedTitle = book.title
        row.isSaving = false
    case .renameFinished(.failure(let error)):
        row.book.title = row.savedTitle
        row.isSaving = false
        row.errorMessage = error.description
    }
}

/// The row's side effects: following its book's details query, and saving a rename.
///
/// Once asked for its details, the row follows the query with a bridge that it owns: it gets
/// the query's current state, then each state after it (loading, loaded or failed, and any
/// later fetch). Lifted with the list's `forEach`, the row's work is cancelled when the row is
/// removed, which ends the bridge and its subscription to the query; so does cancelling the
/// task that dispatched `loadDetails`, such as a row view's `.task`.
public func bookRowMiddleware(
    row: BookRowState,
    action: BookRowAction,
    services: ReadingListServices,
    dispatch: Dispatcher<BookRowAction>
) async {
    switch action {
    case .loadDetails:
        await services.queries.store(for: BookDetailsQuery(title: row.book.title))
            .bridge(to: dispatch) { .detailsChanged(BookDetailsStatus($0)) }
    case .rename(let title):
        await dispatch(BookRowAction.renameFinished) { () async throws(LibraryError) in
            try await services.library.rename(row.id, to: title)
        }
    case .detailsChanged, .renameFinished:
        break
    }
}

/// What a row shows, written against any store of a row: a child store in the app, a mock in a
/// test.
@MainActor
public final class BookRowModel {
    private let store: any StoreProtocol<BookRowState, BookRowAction>

    /// A model of the row that `store` holds.
    public init(store: some StoreProtocol<BookRowState, BookRowAction>) {
        self.store = store
    }

    /// `#3  Dune  (Frank Herbert, 412 pages)`, with the row's state.
    public var line: String {
        let row = store.state
        var line = row.book.line
        if let details = row.details {
            line += "  (\(details.summary))"
        }
        if row.isSaving {
            line += "  saving…"
        }
        if let error = row.errorMessage {
            line += "  [\(error)]"
        }
        return line
    }

    /// Loads the details, and returns once they are there (or failed): follows the book's
    /// details query until then, and then ends the row's bridge.
    public func loadDetails() async {
        let following = store.send(.loadDetails)
        for await isLoading in store.select(\.isLoadingDetails) where !isLoading {
            break
        }
        following.cancel()
    }
}

/// The row as one feature: its reducer and its side effects.
public let bookRowFeature = Feature<BookRowState, BookRowAction, ReadingListServices>(reducer: bookRowReducer) {
    bookRowMiddleware
}
