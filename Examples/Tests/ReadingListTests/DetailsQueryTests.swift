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

        await clock.advance(by: .seconds(1))
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
        let store = makeStore(services: testServices(clock: clock, latency: .seconds(1), requests: requests), state: loadedState())
        let heard = Gate()
        let registration = store.register(holdingFirstDetailsChange(ofRow: 1, at: heard))

        await store.dispatch(.editBook(id: 1))
        let editorLoad = store.send(.editor(.appeared))
        await clock.sleepers(count: 1)   // the editor's fetch waits for the catalog
        let rowLoad = store.send(.list(.row(id: 1, action: .loadDetails)))
        await heard.arrival()   // the row hears the fetch in flight instead of starting another
        heard.open()
        #expect(clock.sleeperCount == 1)

        await clock.advance(by: .seconds(1))
        await editorLoad.value
        await rowLoad.value

        #expect(store.state.editor?.details == duneDetails)
        #expect(store.state.list.rows[id: 1]?.details == duneDetails)
        #expect(requests.arguments == [.details("Dune")])
        registration.cancel()
    }

    @Test("Two rows of the same title share one fetch")
    func twoRowsShareOneFetch() async {
        let clock = ManualClock()
        let requests = CallRecorder<CatalogRequest>()
        let store = makeStore(
            services: testServices(clock: clock, latency: .seconds(1), requests: requests),
            state: loadedState([dune, Book(id: 3, title: "Dune")]))
        let list = store.scope(state: \.list, action: AppAction.list)
        let heard = Gate()
        let registration = store.register(holdingFirstDetailsChange(ofRow: 3, at: heard))

        let first = list.send(.row(id: 1, action: .loadDetails))
        await clock.sleepers(count: 1)
        let second = list.send(.row(id: 3, action: .loadDetails))
        await heard.arrival()
        heard.open()
        await clock.advance(by: .seconds(1))
        await first.value
        await second.value

        #expect(store.state.list.rows.map(\.details) == [duneDetails, duneDetails])
        #expect(requests.arguments == [.details("Dune")])
        registration.cancel()
    }

    @Test("A removed row stops hearing its query; the fetch goes on for the editor")
    func removedRowStopsHearing() async {
        let clock = ManualClock()
        let requests = CallRecorder<CatalogRequest>()
        let queries = OperationClient(storeCreator: .defaultTesting)
        let store = makeStore(
            services: testServices(clock: clock, latency: .seconds(1), requests: requests, queries: queries),
            state: loadedState())
        let details = queries.store(for: BookDetailsQuery(title: "Dune"))
        let heard = Gate()
        let registration = store.register(holdingFirstDetailsChange(ofRow: 1, at: heard))

        await store.dispatch(.editBook(id: 1))
        let editorLoad = store.send(.editor(.appeared))
        await clock.sleepers(count: 1)
        let rowLoad = store.send(.list(.row(id: 1, action: .loadDetails)))
        await heard.arrival()
        heard.open()
        #expect(details.subscriberCount == 2)

        await store.dispatch(.list(.remove(id: 1)))
        await rowLoad.value
        #expect(details.subscriberCount == 1)
        #expect(clock.sleeperCount == 1)   // the editor still waits for the fetch

        // An answer for row 1 would be reported as an action for a row that is gone.
        await clock.advance(by: .seconds(1))
        await editorLoad.value

        #expect(store.state.editor?.details == duneDetails)
        #expect(store.state.list.rows.map(\.id) == [2])
        #expect(details.subscriberCount == 0)
        #expect(requests.arguments == [.details("Dune")])
        registration.cancel()
    }
}

/// An effect that holds the first `detailsChanged` that the row `id` dispatches at `gate`, so a
/// test knows the row has subscribed to its query.
func holdingFirstDetailsChange(ofRow id: Int64, at gate: Gate) -> Effect<AppAction> {
    Effect(dispatch: false) { actions in
        actions.map { action in
            if case .list(.row(id: let rowID, action: .detailsChanged)) = action, rowID == id {
                await gate.pass()
            }
            return action
        }
    }
}

@Suite("The catalog's context key")
struct CatalogKeyTests {
    @Test("A details query on a client whose context has no catalog fails the test, and the catalog is reported down")
    func aQueryWithoutACatalogFails() async {
        let client = OperationClient(storeCreator: .defaultTesting)
        var thrown: (any Error)?
        await withKnownIssue {
            do {
                try await client.store(for: BookDetailsQuery(title: "Dune")).fetch()
            } catch {
                thrown = error
            }
        } matching: { issue in
            issue.description.contains("Catalog.details")
        }
        #expect(thrown as? CatalogError == .unavailable)
    }
}
