#if canImport(SwiftUI)
import SwiftUI
#else
import SwiftUIStandIns
#endif
import Lockstep
import LockstepTesting
import Testing

/// The SwiftUI article's app, driven through the bindings its views use: on every platform
/// through `store.binding(...)`, and on Linux through the views themselves, built with the
/// stand-ins.
@MainActor
@Suite("The SwiftUI article")
struct SwiftUIArticleTests {
    @Test("The search field's binding sets the query; the list shows the matching rows")
    func search() {
        let store = Store(state: LibraryState(rows: sampleBooks), reducer: libraryReducer)
        let query = store.binding(\.query, send: LibraryAction.queryChanged)

        query.wrappedValue = "du"
        #expect(store.query == "du")
        #expect(store.scope(forEach: \.matchingRows, action: LibraryAction.row).map { $0.book.title } == ["Dune"])
    }

    @Test("A StoreBinding reads and writes as the search field does, with no SwiftUI")
    func storeBinding() {
        let store = Store(state: LibraryState(rows: sampleBooks), reducer: libraryReducer)
        let query = StoreBinding(store, \.query, send: LibraryAction.queryChanged)
        query.value = "du"
        #expect(store.query == "du")
        #expect(store.matchingRows.map(\.book.title) == ["Dune"])
    }

    @Test("Opening a row pushes its details; going back pops them")
    func navigation() {
        let store = Store(state: LibraryState(rows: sampleBooks), reducer: libraryReducer)
        let path = store.binding(stack: \.path, action: LibraryAction.path)
        let rows = store.scope(forEach: \.matchingRows, action: LibraryAction.row)

        rows[1].send(.openTapped)
        #expect(path.wrappedValue == [0])
        let detail = store.scope(state: \.path, id: 0, action: LibraryAction.path)
        #expect(detail?.book.title == "Emma")
        detail?.binding(\.notes, send: BookDetailAction.notesChanged).wrappedValue = "Reread"
        #expect(store.path[id: 0]?.notes == "Reread")

        path.wrappedValue = []
        #expect(store.path.isEmpty)
        #expect(detail?.isActive == false)
    }

    @Test("Edit presents the editor; an empty title shows the alert; dismissing the sheet closes it")
    func editorSheetAndAlert() {
        let store = Store(state: LibraryState(rows: sampleBooks), reducer: libraryReducer)
        let sheet = store.binding(state: \.editor, action: LibraryAction.editor, dismiss: .dismissEditor)
        #expect(sheet.wrappedValue == nil)

        store.scope(forEach: \.matchingRows, action: LibraryAction.row)[0].send(.editTapped)
        guard let editor = sheet.wrappedValue else {
            Issue.record("The editor is not presented")
            return
        }
        let alert = editor.binding(\.isShowingError, send: { _ in .errorDismissed })
        editor.binding(\.draft, send: EditorAction.draftChanged).wrappedValue = ""
        editor.send(.saveTapped)
        #expect(alert.wrappedValue)
        #expect(editor.errorMessage == "A book needs a title.")

        alert.wrappedValue = false
        #expect(!alert.wrappedValue)
        sheet.wrappedValue = nil
        #expect(store.editor == nil)
        #expect(store.rows.map(\.book.title) == ["Dune", "Emma"])
    }

    @Test("Save closes the editor with the sheet's dismiss action, then renames the book")
    func save() async {
        let store = TestStore(
            state: LibraryState(rows: sampleBooks), reducer: libraryReducer, middlewares: [libraryMiddleware])
        await store.send(.row(id: 2, action: .editTapped)) { $0.editor = EditorState(bookID: 2, draft: "Emma") }
        await store.send(.editor(.draftChanged("Persuasion"))) { $0.editor?.draft = "Persuasion" }
        await store.send(.editor(.saveTapped))
        await store.receive(.dismissEditor) { $0.editor = nil }
        await store.receive(.row(id: 2, action: .rename("Persuasion"))) { $0.rows[1].book.title = "Persuasion" }
    }

    @Test("Save with an empty title shows the alert and keeps the editor open")
    func saveRefused() async {
        let store = Store(
            state: LibraryState(rows: sampleBooks), reducer: libraryReducer, middlewares: [libraryMiddleware])
        store.send(.row(id: 1, action: .editTapped))
        let editor = store.scope(state: \.editor, action: LibraryAction.editor)
        editor?.binding(\.draft, send: EditorAction.draftChanged).wrappedValue = ""
        await editor?.dispatch(.saveTapped)

        #expect(store.editor?.isShowingError == true)
        #expect(store.rows.map(\.book.title) == ["Dune", "Emma"])
    }

    #if !canImport(SwiftUI)
    @Test("The views, built with the stand-ins, send what the article says")
    func views() {
        let app = LibraryApp()
        _ = app.body
        let store = Store(state: LibraryState(rows: sampleBooks), reducer: libraryReducer)
        let library = LibraryView(store: store).body

        let search = find(TextField.self, in: library)
        search?.text.wrappedValue = "e"
        #expect(store.query == "e")

        let rows = find(ForEach<[ChildStore<BookRowState, BookRowAction>], ObjectIdentifier, BookRowView>.self, in: library)
        #expect(rows?.data.map { $0.book.title } == ["Dune", "Emma"])
        guard let emma = rows.map({ $0.content($0.data[1]).body }) else { return }
        find(Toggle.self, in: emma)?.isOn.wrappedValue = true
        #expect(store.rows[1].isFavorite)
        find(Button<Text>.self, in: emma)?.action()
        #expect(store.path.ids == [0])

        let destination = find(NavigationDestinationModifier<StackElementID, BookDetailView?>.self, in: library)
        let detail = destination?.destination(0)
        #expect(detail?.store.book.title == "Emma")

        let sheet = find(SheetModifier<ChildStore<EditorState, EditorAction>, EditorView>.self, in: library)
        store.send(.row(id: 1, action: .editTapped))
        #expect(sheet?.item.wrappedValue?.draft == "Dune")
        sheet?.item.wrappedValue = nil
        #expect(store.editor == nil)
    }

    /// The first value of type `T` in `view`'s tree of stored values, not looking into objects
    /// (a store and its child stores refer to each other).
    private func find<T>(_ type: T.Type, in view: Any) -> T? {
        if let value = view as? T { return value }
        let mirror = Mirror(reflecting: view)
        guard mirror.displayStyle != .class else { return nil }
        for child in mirror.children {
            if let found = find(type, in: child.value) { return found }
        }
        return nil
    }
    #endif
}

@MainActor
@Suite("The Previews article")
struct PreviewsArticleTests {
    @Test("The PreviewProvider's row view runs its feature's reducer: the toggle flips the favorite")
    func rowPreviewRunsTheReducer() throws {
        let preview = try #require(BookRowView_Previews.previews as Any as? BookRowView)
        #expect(preview.store.isFavorite)
        #expect(preview.store.book.title == "Dune")
        preview.store.send(.favoriteToggled)
        #expect(!BookRowView_Previews.store.state.isFavorite)
        #expect(!preview.store.isFavorite)
    }
}
