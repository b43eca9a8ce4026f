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
        await reached(row, \.isLoadingDetails) { !$0 }
        load.cancel()   // the row would go on following its query
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

        await BookListModel(store: list).rows[0].loadDetails()

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
        await reached(store, \.editor?.details) { $0 != nil }
        await reached(store, \.list.rows[id: 1]?.details) { $0 != nil }

        #expect(store.state.editor?.details == duneDetails)
        #expect(store.state.list.rows[id: 1]?.details == duneDetails)
        #expect(requests.arguments == [.details("Dune")])
        // The editor's bridge ends with the editor, the row's with the row.
        await store.dispatch(.dismissEditor)
        await editorLoad.value
        await store.dispatch(.list(.remove(id: 1)))
        await rowLoad.value
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
        await reached(list, \.rows) { $0.allSatisfy { $0.details != nil } }
        first.cancel()
        second.cancel()
        await first.value
        await second.value

        #expect(store.state.list.rows.map(\.details) == [duneDetails, duneDetails])
        #expect(requests.arguments == [.details("Dune")])
        registration.cancel()
    }

    @Test("A removed row stops hearing its query; the fetch goes on for the editor, until it is dismissed")
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
        await reached(store, \.editor?.details) { $0 != nil }

        #expect(store.state.editor?.details == duneDetails)
        #expect(store.state.list.rows.map(\.id) == [2])
        #expect(details.subscriberCount == 1)
        await store.dispatch(.editor(.cancelTapped))
        await editorLoad.value
        #expect(details.subscriberCount == 0)
        #expect(requests.arguments == [.details("Dune")])
        registration.cancel()
    }
}

/// An effect that holds at `gate` each action that `matches` accepts, once it is reduced. When
/// the test has seen it arrive, the action is in the state, and the bridge that dispatched it
/// has nothing more to send until its query changes again: the test can dismiss the feature
/// without a late action reaching a feature that is gone.
func holding(at gate: Gate, _ matches: @escaping @Sendable (AppAction) -> Bool) -> Effect<AppAction> {
    Effect(dispatch: false) { actions in
        actions.map { action in
            if matches(action) { await gate.pass() }
            return action
        }
    }
}

/// An effect that holds the first `detailsChanged` that the row `id` dispatches at `gate` (its
/// bridge's first state, dispatched once it has subscribed), so a test knows the row has
/// subscribed to its query.
func holdingFirstDetailsChange(ofRow id: Int64, at gate: Gate) -> Effect<AppAction> {
    holding(at: gate) { action in
        if case .list(.row(id: let rowID, action: .detailsChanged)) = action { rowID == id } else { false }
    }
}

/// Whether `action` is the loading state of a details query, dispatched by a row's or the
/// editor's bridge.
@Sendable func isDetailsLoading(_ action: AppAction) -> Bool {
    switch action {
    case .list(.row(_, .detailsChanged(let status))), .editor(.detailsChanged(let status)): status.isLoading
    default: false
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
