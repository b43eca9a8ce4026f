import Lockstep
import LockstepQuery
import LockstepTesting
import ReadingList
import Testing

/// A book's details come from its `BookDetailsQuery`, run by the app's `OperationClient`.
@MainActor
@Suite("Book details through the query layer")
struct DetailsQueryTests {
    @Test("The query's loading state, then its value, reach the row in Store.state; the client keeps the value")
    func loadingThenValue() async throws {
        let clock = ManualClock()
        let queries = OperationClient(storeCreator: .defaultTesting)
        let store = makeStore(services: testServices(clock: clock, latency: .seconds(1), queries: queries), state: loadedState())
        let list = store.scope(state: \.list, action: AppAction.list)
        let row = try #require(list.scope(state: \.rows, id: 1, action: BookListAction.row))

        let load = row.send(.loadDetails)
        await clock.sleepers(count: 1)   // the query's fetch waits for the catalog
        #expect(queries.store(for: BookDetailsQuery(title: "Dune")).isLoading)
        #expect(store.state.list.rows[id: 1]?.isLoadingDetails == true)
        #expect(store.state.list.rows[id: 1]?.details == nil)

        clock.advance(by: .seconds(1))
        await load.value

        #expect(store.state.list.rows[id: 1]?.isLoadingDetails == false)
        #expect(store.state.list.rows[id: 1]?.details == duneDetails)
        #expect(queries.store(for: BookDetailsQuery(title: "Dune")).currentValue == duneDetails)
        #expect(BookListModel(store: list).lines == ["#1  Dune  (Frank Herbert, 412 pages)", "#2  Moby-Dick"])
    }

    @Test("A title the catalog does not know is the row's error, asked once: tests run the queries without retries")
    func errorIsTheRowsError() async {
        let requests = CallRecorder<CatalogRequest>()
        let unknown = Book(id: 7, title: "Unknown")
        let store = makeStore(services: testServices(requests: requests), state: loadedState([unknown]))
        let list = store.scope(state: \.list, action: AppAction.list)

        await list.dispatch(.row(id: 7, action: .loadDetails))

        #expect(store.state.list.rows[id: 7]?.isLoadingDetails == false)
        #expect(store.state.list.rows[id: 7]?.errorMessage == "the catalog has no book titled 'Unknown'")
        #expect(requests.arguments == [.details("Unknown")])
        #expect(BookListModel(store: list).lines == ["#7  Unknown  [the catalog has no book titled 'Unknown']"])
    }

    @Test("The editor and a row asking for the same book's details share one fetch")
    func editorAndRowShareOneFetch() async {
        let clock = ManualClock()
        let requests = CallRecorder<CatalogRequest>()
        let store = TestStore(
            state: loadedState(), reducer: appReducer,
            services: testServices(clock: clock, latency: .seconds(1), requests: requests), middlewares: appMiddlewares)

        await store.send(.editBook(id: 1)) { $0.editor = EditorState(book: dune) }
        let editorLoad = await store.send(.editor(.appeared)) { $0.editor?.isLoading = true }
        await clock.sleepers(count: 1)   // the editor's fetch waits for the catalog
        let rowLoad = await store.send(.list(.row(id: 1, action: .loadDetails))) { $0.list.rows[id: 1]?.isLoadingDetails = true }
        // The row hears the fetch in flight instead of starting another.
        await store.receive(.list(.row(id: 1, action: .detailsChanged(BookDetailsStatus(isLoading: true)))))
        #expect(clock.sleeperCount == 1)

        clock.advance(by: .seconds(1))
        await editorLoad.finish()
        await rowLoad.finish()
        store.skipReceivedActions()   // the editor's answer and the row's, in either order

        #expect(store.state.editor?.details == duneDetails)
        #expect(store.state.list.rows[id: 1]?.details == duneDetails)
        #expect(requests.arguments == [.details("Dune")])
    }

    @Test("Two rows of the same title share one fetch")
    func twoRowsShareOneFetch() async {
        let clock = ManualClock()
        let requests = CallRecorder<CatalogRequest>()
        let store = TestStore(
            state: loadedState([dune, Book(id: 3, title: "Dune")]), reducer: appReducer,
            services: testServices(clock: clock, latency: .seconds(1), requests: requests), middlewares: appMiddlewares)

        let first = await store.send(.list(.row(id: 1, action: .loadDetails))) { $0.list.rows[id: 1]?.isLoadingDetails = true }
        await store.receive(.list(.row(id: 1, action: .detailsChanged(BookDetailsStatus(isLoading: true)))))
        await clock.sleepers(count: 1)
        let second = await store.send(.list(.row(id: 3, action: .loadDetails))) { $0.list.rows[id: 3]?.isLoadingDetails = true }
        await store.receive(.list(.row(id: 3, action: .detailsChanged(BookDetailsStatus(isLoading: true)))))

        clock.advance(by: .seconds(1))
        await first.finish()
        await second.finish()
        store.skipReceivedActions()   // each row's answer, in either order

        #expect(store.state.list.rows.map(\.details) == [duneDetails, duneDetails])
        #expect(requests.arguments == [.details("Dune")])
    }

    @Test("A removed row stops hearing its query; the fetch goes on for the editor")
    func removedRowStopsHearing() async {
        let clock = ManualClock()
        let requests = CallRecorder<CatalogRequest>()
        let queries = OperationClient(storeCreator: .defaultTesting)
        let store = TestStore(
            state: loadedState(), reducer: appReducer,
            services: testServices(clock: clock, latency: .seconds(1), requests: requests, queries: queries),
            middlewares: appMiddlewares)
        let details = queries.store(for: BookDetailsQuery(title: "Dune"))

        await store.send(.editBook(id: 1)) { $0.editor = EditorState(book: dune) }
        let editorLoad = await store.send(.editor(.appeared)) { $0.editor?.isLoading = true }
        await clock.sleepers(count: 1)
        let rowLoad = await store.send(.list(.row(id: 1, action: .loadDetails))) { $0.list.rows[id: 1]?.isLoadingDetails = true }
        await store.receive(.list(.row(id: 1, action: .detailsChanged(BookDetailsStatus(isLoading: true)))))
        #expect(details.subscriberCount == 2)

        await store.send(.list(.remove(id: 1))) { $0.list.rows.remove(id: 1) }
        await store.receive(.list(.removed(.success(1))))
        await rowLoad.finish()
        #expect(details.subscriberCount == 1)
        #expect(clock.sleeperCount == 1)   // the editor still waits for the fetch

        clock.advance(by: .seconds(1))
        // Only the editor hears the answer: the test store would fail on an answer for row 1.
        await store.receive(.editor(.detailsLoaded(.success(duneDetails)))) {
            $0.editor?.isLoading = false
            $0.editor?.details = duneDetails
        }
        await editorLoad.finish()
        #expect(details.subscriberCount == 0)
        #expect(requests.arguments == [.details("Dune")])
    }
}
