import IdentifiedCollections
import Lockstep
import LockstepQuery
import LockstepTesting
import ReadingList
import Testing

@MainActor
@Suite("Book list and rows")
struct BookListTests {
    @Test("Load, add and remove, every step asserted with a test store")
    func listFlowsWithTestStore() async {
        let library = TestLibrary()
        let store = TestStore(state: AppState(), feature: appFeature, services: testServices(library: library))

        await store.send(.list(.load)) { $0.list.isLoading = true }
        await store.receive(.list(.loaded(.success([dune, mobyDick])))) {
            $0.list.isLoading = false
            $0.list.rows = [BookRowState(book: dune), BookRowState(book: mobyDick)]
        }
        await store.send(.list(.add("Middlemarch")))
        await store.receive(.list(.added(.success(Book(id: 3, title: "Middlemarch"))))) {
            $0.list.rows.append(BookRowState(book: Book(id: 3, title: "Middlemarch")))
        }
        await store.send(.list(.remove(id: 1))) { $0.list.rows.remove(id: 1) }
        await store.receive(.list(.removed(.success(1))))
        await store.send(.list(.add("Moby-Dick")))
        await store.receive(.list(.added(.failure(.duplicateTitle("Moby-Dick"))))) {
            $0.list.errorMessage = "a book titled 'Moby-Dick' is already on the list"
        }

        #expect(library.current == [mobyDick, Book(id: 3, title: "Middlemarch")])
    }

    @Test("A row's details load through its own child store, a grandchild of the app's store; its model returns once they are there")
    func rowLoadsThroughChildStore() async throws {
        let requests = CallRecorder<CatalogRequest>()
        let store = makeStore(services: testServices(requests: requests))
        let list = store.scope(state: \.list, action: AppAction.list)
        await list.dispatch(.load)          // the store reduces .list(.load)
        let rows = list.scope(forEach: \.rows, action: BookListAction.row)
        #expect(rows.map(\.book) == [dune, mobyDick])

        await BookRowModel(store: rows[1]).loadDetails()

        #expect(rows[1].details == mobyDickDetails)
        #expect(rows[0].details == nil)
        #expect(store.state.list.rows[id: 2]?.details == mobyDickDetails)
        #expect(requests.arguments == [.details("Moby-Dick")])
        #expect(BookListModel(store: list).lines == ["#1  Dune", "#2  Moby-Dick  (Herman Melville, 635 pages)"])
    }

    @Test("A row's load, asserted with a test store: the query's first, idle state, its loading, then its value; an unknown title is the row's error")
    func rowLoadWithTestStore() async {
        let store = TestStore(
            state: loadedState([dune, Book(id: 7, title: "Unknown")]), feature: appFeature,
            services: testServices())

        let duneLoad = await store.send(.list(.row(id: 1, action: .loadDetails))) { $0.list.rows[id: 1]?.isLoadingDetails = true }
        // The bridge's first state is the query's current one: not fetched yet, nothing to show.
        await store.receive(.list(.row(id: 1, action: .detailsChanged(BookDetailsStatus()))))
        await store.receive(.list(.row(id: 1, action: .detailsChanged(BookDetailsStatus(isLoading: true)))))
        await store.receive(.list(.row(id: 1, action: .detailsChanged(BookDetailsStatus(details: duneDetails))))) {
            $0.list.rows[id: 1]?.isLoadingDetails = false
            $0.list.rows[id: 1]?.details = duneDetails
        }
        let unknownLoad = await store.send(.list(.row(id: 7, action: .loadDetails))) { $0.list.rows[id: 7]?.isLoadingDetails = true }
        await store.receive(.list(.row(id: 7, action: .detailsChanged(BookDetailsStatus()))))
        await store.receive(.list(.row(id: 7, action: .detailsChanged(BookDetailsStatus(isLoading: true)))))
        await store.receive(.list(.row(id: 7, action: .detailsChanged(BookDetailsStatus(error: .notFound("Unknown")))))) {
            $0.list.rows[id: 7]?.isLoadingDetails = false
            $0.list.rows[id: 7]?.errorMessage = "the catalog has no book titled 'Unknown'"
        }
        // The rows go on following their queries until they are removed.
        #expect(!duneLoad.isFinished && !unknownLoad.isFinished)
        await duneLoad.cancel()
        await unknownLoad.cancel()
    }

    @Test("A row follows its details query until it is removed: a later value shows, then the removal ends the bridge")
    func rowFollowsItsQueryUntilRemoved() async {
        let queries = OperationClient(storeCreator: .defaultTesting)
        let store = TestStore(
            state: loadedState(), feature: appFeature, services: testServices(queries: queries))
        let details = queries.store(for: BookDetailsQuery(title: "Dune"))

        let load = await store.send(.list(.row(id: 1, action: .loadDetails))) { $0.list.rows[id: 1]?.isLoadingDetails = true }
        await store.receive(.list(.row(id: 1, action: .detailsChanged(BookDetailsStatus()))))
        await store.receive(.list(.row(id: 1, action: .detailsChanged(BookDetailsStatus(isLoading: true)))))
        await store.receive(.list(.row(id: 1, action: .detailsChanged(BookDetailsStatus(details: duneDetails))))) {
            $0.list.rows[id: 1]?.isLoadingDetails = false
            $0.list.rows[id: 1]?.details = duneDetails
        }
        #expect(details.subscriberCount == 1)

        let revised = BookDetails(author: "Frank Herbert", pages: 896)
        details.currentValue = revised
        await store.receive(.list(.row(id: 1, action: .detailsChanged(BookDetailsStatus(details: revised))))) {
            $0.list.rows[id: 1]?.details = revised
        }

        await store.send(.list(.remove(id: 1))) { $0.list.rows.remove(id: 1) }
        await store.receive(.list(.removed(.success(1))))
        await load.finish()
        #expect(details.subscriberCount == 0)
        details.currentValue = duneDetails   // nothing reaches the removed row: the test store would report it
    }

    @Test("Removing a row while its load is in flight cancels the load; the other row's goes on")
    func removingARowCancelsItsLoad() async throws {
        let clock = ManualClock()
        let requests = CallRecorder<CatalogRequest>()
        let library = TestLibrary()
        let store = makeStore(services: testServices(library: library, clock: clock, latency: .seconds(1), requests: requests))
        let list = store.scope(state: \.list, action: AppAction.list)
        await list.dispatch(.load)
        let rows = list.scope(forEach: \.rows, action: BookListAction.row)
        let loading = Gate()
        let registration = store.register(holding(at: loading, isDetailsLoading))

        let loads = rows.map { $0.send(.loadDetails) }
        await clock.sleepers(count: 2)
        // Each row's bridge has dispatched its query's loading state (the effect holds one at a time).
        await loading.arrival()
        loading.open()
        await loading.arrival(count: 2)
        #expect(rows.allSatisfy { $0.isLoadingDetails })

        await list.dispatch(.remove(id: 1))

        // The removed row's call to the catalog was cancelled: only the other row still waits.
        #expect(clock.sleeperCount == 1)
        await loads[0].value
        #expect(!rows[0].isActive)
        await clock.advance(by: .seconds(1))
        await reached(rows[1], \.details) { $0 != nil }
        loads[1].cancel()
        await loads[1].value

        #expect(store.state.list.rows.map(\.id) == [2])
        #expect(rows[1].details == mobyDickDetails)
        #expect(requests.arguments == [.details("Moby-Dick")])
        #expect(library.removed == [1])
        registration.cancel()
    }

    @Test("Removing a row while its details load, with a test store: its bridge ends, the fetch nobody else waits for is cancelled, no answer arrives for it")
    func removingARowWithTestStore() async {
        let clock = ManualClock()
        let queries = OperationClient(storeCreator: .defaultTesting)
        let store = TestStore(
            state: loadedState(), feature: appFeature,
            services: testServices(clock: clock, latency: .seconds(1), queries: queries))
        let details = queries.store(for: BookDetailsQuery(title: "Dune"))

        let load = await store.send(.list(.row(id: 1, action: .loadDetails))) { $0.list.rows[id: 1]?.isLoadingDetails = true }
        await store.receive(.list(.row(id: 1, action: .detailsChanged(BookDetailsStatus()))))
        await store.receive(.list(.row(id: 1, action: .detailsChanged(BookDetailsStatus(isLoading: true)))))
        #expect(!load.isFinished)
        #expect(details.subscriberCount == 1)
        await store.send(.list(.remove(id: 1))) { $0.list.rows.remove(id: 1) }
        await store.receive(.list(.removed(.success(1))))
        await load.finish()
        #expect(details.subscriberCount == 0)
        #expect(clock.sleeperCount == 0)
    }

    @Test("A row that joins a fetch in flight first gets its loading state; removing it leaves the fetch to whoever awaits it")
    func removingARowThatJoinedAFetch() async throws {
        let clock = ManualClock()
        let queries = OperationClient(storeCreator: .defaultTesting)
        let store = TestStore(
            state: loadedState(), feature: appFeature,
            services: testServices(clock: clock, latency: .seconds(1), queries: queries))
        let details = queries.store(for: BookDetailsQuery(title: "Dune"))
        // A fetch already in flight (another screen's, say) that the row joins.
        let fetch = Task { try await details.fetch() }
        await clock.sleepers(count: 1)

        let load = await store.send(.list(.row(id: 1, action: .loadDetails))) { $0.list.rows[id: 1]?.isLoadingDetails = true }
        await store.receive(.list(.row(id: 1, action: .detailsChanged(BookDetailsStatus(isLoading: true)))))
        await store.send(.list(.remove(id: 1))) { $0.list.rows.remove(id: 1) }
        await store.receive(.list(.removed(.success(1))))
        await load.finish()
        #expect(details.subscriberCount == 0)

        // The answer arrives for nobody: the test store would report an action for row 1.
        await clock.advance(by: .seconds(1))
        #expect(try await fetch.value == duneDetails)
    }

    @Test("Refresh is throttled on the services' clock: one load a second, the first refresh within the second loading when it ends")
    func refreshIsThrottled() async {
        let clock = ManualClock()
        let library = TestLibrary()
        let store = makeStore(services: testServices(library: library, clock: clock))
        let list = store.scope(state: \.list, action: AppAction.list)

        await list.dispatch(.refresh)
        #expect(library.loads == 1)
        // Within the second: kept for its end, as Combine's throttle keeps the first element.
        let kept = list.send(.refresh)
        await clock.sleepers(count: 1)
        // A refresh is kept already: this one is dropped.
        await list.dispatch(.refresh)
        await clock.advance(by: .milliseconds(999))
        #expect(library.loads == 1)

        await clock.advance(by: .milliseconds(1))
        await kept.value
        #expect(library.loads == 2)
        #expect(list.rows.map(\.book) == [dune, mobyDick])
    }
}
