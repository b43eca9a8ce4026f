// The app of the SwiftUI article: a library of books with a search field, a row per book, an
// editor in a sheet with an alert, and a navigation stack of book details. Its views compile
// against SwiftUI where it exists, and against the SwiftUIStandIns module on Linux.
#if canImport(SwiftUI)
import SwiftUI
#else
import SwiftUIStandIns
#endif
import Lockstep

// MARK: State and actions

struct LibraryBook: Equatable, Sendable, Identifiable {
    var id: Int
    var title: String
}

struct BookRowState: Equatable, Sendable, Identifiable {
    var book: LibraryBook
    var isFavorite = false

    var id: Int { book.id }
}

enum BookRowAction: Equatable, Sendable {
    case openTapped
    case editTapped
    case favoriteToggled
    case rename(String)
}

struct EditorState: Equatable, Sendable {
    var bookID: Int
    var draft: String
    var errorMessage: String?

    var isShowingError: Bool { errorMessage != nil }
}

enum EditorAction: Equatable, Sendable {
    case draftChanged(String)
    case saveTapped
    case errorDismissed
}

struct BookDetailState: Equatable, Sendable {
    var book: LibraryBook
    var notes = ""
}

enum BookDetailAction: Equatable, Sendable {
    case notesChanged(String)
}

struct LibraryState: Equatable, Sendable {
    var query = ""
    var rows: [BookRowState] = []
    var editor: EditorState?
    var path = StackState<BookDetailState>()

    var matchingRows: [BookRowState] {
        query.isEmpty ? rows : rows.filter { $0.book.title.lowercased().contains(query.lowercased()) }
    }
}

enum LibraryAction: Equatable, Sendable {
    case queryChanged(String)
    case row(id: Int, action: BookRowAction)
    case editor(EditorAction)
    case dismissEditor
    case path(StackAction<BookDetailState, BookDetailAction>)

    var row: (Int, BookRowAction)? {
        if case .row(let id, let action) = self { (id, action) } else { nil }
    }

    var editor: EditorAction? {
        if case .editor(let action) = self { action } else { nil }
    }

    var path: StackAction<BookDetailState, BookDetailAction>? {
        if case .path(let action) = self { action } else { nil }
    }
}

// MARK: Reducers

let bookRowReducer: InPlaceReducer<BookRowState, BookRowAction> = { row, action in
    switch action {
    case .favoriteToggled:
        row.isFavorite.toggle()
    case .rename(let title):
        row.book.title = title
    case .openTapped, .editTapped:
        break
    }
}

let editorReducer: InPlaceReducer<EditorState, EditorAction> = { editor, action in
    switch action {
    case .draftChanged(let draft):
        editor.draft = draft
    case .saveTapped:
        if editor.draft.isEmpty {
            editor.errorMessage = "A book needs a title."
        }
    case .errorDismissed:
        editor.errorMessage = nil
    }
}

let bookDetailReducer: InPlaceReducer<BookDetailState, BookDetailAction> = { detail, action in
    switch action {
    case .notesChanged(let notes):
        detail.notes = notes
    }
}

let libraryCoreReducer: InPlaceReducer<LibraryState, LibraryAction> = { state, action in
    switch action {
    case .queryChanged(let query):
        state.query = query
    case .row(let id, .openTapped):
        guard let row = state.rows.first(where: { $0.id == id }) else { return }
        state.path.append(BookDetailState(book: row.book))
    case .row(let id, .editTapped):
        guard let row = state.rows.first(where: { $0.id == id }) else { return }
        state.editor = EditorState(bookID: id, draft: row.book.title)
    case .dismissEditor:
        state.editor = nil
    case .row, .editor, .path:
        break
    }
}

let libraryReducer: InPlaceReducer<LibraryState, LibraryAction> = combineReducers(
    forEachReducer(bookRowReducer, state: \LibraryState.rows, action: \LibraryAction.row),
    ifLetReducer(editorReducer, state: \LibraryState.editor, action: \LibraryAction.editor),
    forEachReducer(bookDetailReducer, state: \LibraryState.path, action: \LibraryAction.path),
    libraryCoreReducer
)

// What connects the features: saving in the editor (a title the editor's reducer accepted)
// dismisses it, with the same action as the sheet's binding, and renames the book's row.
let libraryMiddleware: PlainMiddleware<LibraryState, LibraryAction> = { state, action, dispatch in
    guard case .editor(.saveTapped) = action, let editor = state.editor, editor.errorMessage == nil else { return }
    await dispatch(.dismissEditor)
    await dispatch(.row(id: editor.bookID, action: .rename(editor.draft)))
}

let sampleBooks: [BookRowState] = [
    BookRowState(book: LibraryBook(id: 1, title: "Dune")),
    BookRowState(book: LibraryBook(id: 2, title: "Emma")),
]

// MARK: The app and its views

struct LibraryApp: App {
    @State private var store = Store(
        state: LibraryState(rows: sampleBooks), reducer: libraryReducer, middlewares: [libraryMiddleware])

    var body: some Scene {
        WindowGroup {
            LibraryView(store: store)
        }
    }
}

struct LibraryView: View {
    let store: Store<LibraryState, LibraryAction>

    var body: some View {
        NavigationStack(path: store.binding(stack: \.path, action: LibraryAction.path)) {
            List {
                TextField("Search", text: store.binding(\.query, send: LibraryAction.queryChanged))
                ForEach(store.scope(forEach: \.matchingRows, action: LibraryAction.row)) { row in
                    BookRowView(store: row)
                }
            }
            .navigationTitle("Library")
            .navigationDestination(for: StackElementID.self) { id in
                if let detail = store.scope(state: \.path, id: id, action: LibraryAction.path) {
                    BookDetailView(store: detail)
                }
            }
        }
        .sheet(item: store.binding(state: \.editor, action: LibraryAction.editor, dismiss: .dismissEditor)) { editor in
            EditorView(store: editor)
        }
    }
}

struct BookRowView: View {
    let store: ChildStore<BookRowState, BookRowAction>

    var body: some View {
        HStack {
            Button(store.book.title) { store.send(.openTapped) }
            Toggle("Favorite", isOn: store.binding(\.isFavorite, send: { _ in .favoriteToggled }))
            Button("Edit") { store.send(.editTapped) }
        }
    }
}

struct EditorView: View {
    let store: ChildStore<EditorState, EditorAction>

    var body: some View {
        List {
            TextField("Title", text: store.binding(\.draft, send: EditorAction.draftChanged))
            Button("Save") { store.send(.saveTapped) }
        }
        .alert("Couldn't save", isPresented: store.binding(\.isShowingError, send: { _ in .errorDismissed })) {
            Button("OK") {}
        } message: {
            Text(store.errorMessage ?? "")
        }
    }
}

struct BookDetailView: View {
    let store: ChildStore<BookDetailState, BookDetailAction>

    var body: some View {
        List {
            Text(store.book.title)
            TextField("Notes", text: store.binding(\.notes, send: BookDetailAction.notesChanged))
        }
        .navigationTitle(store.book.title)
    }
}

// MARK: A field at any depth

struct ReaderTheme: ObservableState, Sendable {
    var accent = "blue"
    var isDark = false
}

struct ReaderSettings: ObservableState, Sendable {
    var theme = ReaderTheme()
    var fontSize = 14
}

struct ReaderState: Equatable, Sendable {
    var settings = ReaderSettings()
    var page = 0
}

enum ReaderAction: Sendable {
    case turnPage
}

/// A label that shows the accent three levels deep, and is drawn again only when it changes.
struct AccentLabel: View {
    let store: Store<ReaderState, ReaderAction>

    var body: some View {
        Text(store[\.settings.theme.accent])   // drawn again when `accent` changes, and only then
    }
}
