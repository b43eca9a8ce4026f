import Lockstep
import LockstepTesting
import ReadingList
import Testing

/// The features' models are written against `StoreProtocol`: tested here on mock stores.
@MainActor
@Suite("View models on mock stores")
struct ViewModelTests {
    @Test("A row model shows its row and dispatches its load")
    func rowModel() async {
        var state = BookRowState(book: dune)
        state.details = duneDetails
        let mock = MockStore<BookRowState, BookRowAction>(state: state)
        let model = BookRowModel(store: mock)

        #expect(model.line == "#1  Dune  (Frank Herbert, 412 pages)")
        await model.loadDetails()
        #expect(mock.recordedActions == [.loadDetails])
    }

    @Test("The list model makes a row model per row, on the rows' child stores of its store")
    func listModelOnMock() async {
        let mock = MockStore<BookListState, BookListAction>(state: loadedState().list)
        let model = BookListModel(store: mock)

        #expect(model.lines == ["#1  Dune", "#2  Moby-Dick"])
        await model.rows[1].loadDetails()
        #expect(mock.recordedActions == [.row(id: 2, action: .loadDetails)])

        mock.setState(BookListState())
        #expect(model.lines == ["The reading list is empty."])
    }

    @Test("The editor model sends the draft and the save")
    func editorModel() async {
        let mock = MockStore<EditorState, EditorAction>(state: EditorState(book: dune))
        let model = EditorModel(store: mock)

        model.titleChanged("Dune Messiah")
        await model.save()

        #expect(mock.recordedActions == [.binding(.set(\.draft, "Dune Messiah")), .saveTapped])
    }

    @Test("The search model shows what the search is doing")
    func searchModel() {
        var state = SearchState()
        state.query = "x"
        state.isSearching = true
        let mock = MockStore<SearchState, SearchAction>(state: state)
        let model = SearchModel(store: mock)
        #expect(model.lines(onList: []) == ["Searching…"])

        state.isSearching = false
        mock.setState(state)
        #expect(model.lines(onList: []) == ["Nothing in the catalog matches 'x'."])
    }
}
