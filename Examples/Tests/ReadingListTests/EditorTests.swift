import Lockstep
import LockstepTesting
import ReadingList
import Testing

@MainActor
@Suite("Editor: presentation, cancellation and optimistic save")
struct EditorTests {
    @Test("Present, load the details, dismiss: every step asserted with a test store")
    func presentAndDismissWithTestStore() async {
        let store = TestStore(state: loadedState(), feature: appFeature, services: testServices())

        await store.send(.editBook(id: 1)) { $0.editor = EditorState(book: dune) }
        let appeared = await store.send(.editor(.appeared)) { $0.editor?.isLoading = true }
        // The bridge's first state is the query's current one: not fetched yet, nothing to show.
        await store.receive(.editor(.detailsChanged(BookDetailsStatus())))
        await store.receive(.editor(.detailsChanged(BookDetailsStatus(isLoading: true))))
        await store.receive(.editor(.detailsChanged(BookDetailsStatus(details: duneDetails)))) {
            $0.editor?.isLoading = false
            $0.editor?.details = duneDetails
        }
        #expect(!appeared.isFinished)   // the editor follows the query while it is presented
        await store.send(.editor(.cancelTapped))
        await store.receive(.dismissEditor) { $0.editor = nil }
        await appeared.finish()   // the dismissal ended the bridge
    }

    @Test("The editor's child store exists while it is presented, and keeps its last state once dismissed")
    func editorChildStore() async throws {
        let store = makeStore(services: testServices(), state: loadedState())
        #expect(store.scope(state: \.editor, action: AppAction.editor) == nil)

        await store.dispatch(.editBook(id: 2))
        let editor = try #require(store.scope(state: \.editor, action: AppAction.editor))
        let appeared = editor.send(.appeared)
        await reached(editor, \.details) { $0 != nil }
        #expect(editor.details == mobyDickDetails)
        await editor.dispatch(.cancelTapped)
        await appeared.value

        #expect(store.state.editor == nil)
        #expect(!editor.isActive)
        #expect(editor.draft == "Moby-Dick")
        await withKnownIssue {
            await editor.dispatch(.binding(.set(\.draft, "late")))
        } matching: { $0.description.contains("whose state is gone") }
    }

    @Test("Dismissing the editor cancels its load in flight")
    func dismissCancelsTheLoad() async throws {
        let clock = ManualClock()
        let requests = CallRecorder<CatalogRequest>()
        let store = makeStore(services: testServices(clock: clock, latency: .seconds(1), requests: requests), state: loadedState())
        let loading = Gate()
        let registration = store.register(holding(at: loading, isDetailsLoading))
        await store.dispatch(.editBook(id: 1))
        let editor = try #require(store.scope(state: \.editor, action: AppAction.editor))

        let appeared = editor.send(.appeared)
        await clock.sleepers(count: 1)
        await loading.arrival()   // the bridge has dispatched the query's loading state
        loading.open()
        #expect(editor.isLoading)
        await editor.dispatch(.cancelTapped)

        #expect(clock.sleeperCount == 0)
        await appeared.value
        #expect(store.state.editor == nil)
        #expect(requests.count == 0)
        registration.cancel()
    }

    @Test("Presenting another book cancels the load for the one presented before")
    func presentingAnotherBookCancelsTheLoad() async throws {
        let clock = ManualClock()
        let requests = CallRecorder<CatalogRequest>()
        let store = makeStore(services: testServices(clock: clock, latency: .seconds(1), requests: requests), state: loadedState())
        let loading = Gate()
        let registration = store.register(holding(at: loading, isDetailsLoading))
        await store.dispatch(.editBook(id: 1))
        let first = store.send(.editor(.appeared))
        await clock.sleepers(count: 1)
        await loading.arrival()
        loading.open()

        await store.dispatch(.editBook(id: 2))
        await first.value
        #expect(clock.sleeperCount == 0)
        let second = store.send(.editor(.appeared))
        await clock.sleepers(count: 1)
        await clock.advance(by: .seconds(1))
        await reached(store, \.editor?.details) { $0 != nil }

        #expect(store.state.editor?.id == 2)
        #expect(store.state.editor?.details == mobyDickDetails)
        #expect(requests.arguments == [.details("Moby-Dick")])
        await store.dispatch(.dismissEditor)
        await second.value
        registration.cancel()
    }

    @Test("Saving closes the editor and shows the new title at once; the database confirms it")
    func optimisticSaveSucceeds() async {
        let library = TestLibrary()
        let store = TestStore(state: loadedState(), feature: appFeature, services: testServices(library: library))

        await store.send(.editBook(id: 1)) { $0.editor = EditorState(book: dune) }
        await store.send(.editor(.binding(.set(\.draft, "Dune Messiah")))) { $0.editor?.draft = "Dune Messiah" }
        await store.send(.editor(.saveTapped))
        await store.receive(.dismissEditor) { $0.editor = nil }
        await store.receive(.list(.row(id: 1, action: .rename("Dune Messiah")))) {
            $0.list.rows[id: 1]?.book.title = "Dune Messiah"
            $0.list.rows[id: 1]?.isSaving = true
        }
        await store.receive(.list(.row(id: 1, action: .renameFinished(.success(Book(id: 1, title: "Dune Messiah")))))) {
            $0.list.rows[id: 1]?.savedTitle = "Dune Messiah"
            $0.list.rows[id: 1]?.isSaving = false
        }
        #expect(library.current == [Book(id: 1, title: "Dune Messiah"), mobyDick])
    }

    @Test("A save the database refuses goes back to the saved title")
    func optimisticSaveRollsBack() async {
        let library = TestLibrary()
        let store = TestStore(state: loadedState(), feature: appFeature, services: testServices(library: library))

        await store.send(.editBook(id: 1)) { $0.editor = EditorState(book: dune) }
        await store.send(.editor(.binding(.set(\.draft, "Moby-Dick")))) { $0.editor?.draft = "Moby-Dick" }
        await store.send(.editor(.saveTapped))
        await store.receive(.dismissEditor) { $0.editor = nil }
        await store.receive(.list(.row(id: 1, action: .rename("Moby-Dick")))) {
            $0.list.rows[id: 1]?.book.title = "Moby-Dick"
            $0.list.rows[id: 1]?.isSaving = true
        }
        await store.receive(.list(.row(id: 1, action: .renameFinished(.failure(.duplicateTitle("Moby-Dick")))))) {
            $0.list.rows[id: 1]?.book.title = "Dune"
            $0.list.rows[id: 1]?.isSaving = false
            $0.list.rows[id: 1]?.errorMessage = "a book titled 'Moby-Dick' is already on the list"
        }
        #expect(library.current == [dune, mobyDick])
    }

    @Test("Through the models on child stores: the row shows the new title while the save is in flight, then rolls back")
    func optimisticSaveThroughChildStores() async throws {
        let gate = Gate()
        let library = TestLibrary(renameGate: gate)
        let app = ReadingListModel(store: makeStore(services: testServices(library: library)))
        await app.list.load()
        let row = try #require(app.store.scope(state: \.list, action: AppAction.list).scope(state: \.rows, id: 1, action: BookListAction.row))
        let editor = try #require(await app.edit(1))

        editor.titleChanged("Dune Messiah")
        let save = Task { await editor.save() }
        await gate.arrival()

        #expect(app.store.state.editor == nil)
        #expect(row.book.title == "Dune Messiah")
        #expect(app.list.lines == ["#1  Dune Messiah  saving…", "#2  Moby-Dick"])

        library.failNextWrite(with: .storage("disk full"))
        gate.open()
        await save.value

        #expect(row.book.title == "Dune")
        #expect(!row.isSaving)
        #expect(app.list.lines.first == "#1  Dune  [the reading list database cannot be used: disk full]")
        #expect(library.current == [dune, mobyDick])
    }
}
