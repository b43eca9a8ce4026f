@testable import Lockstep
import LockstepTesting
import Observation
import Testing

@MainActor
@Suite("Child stores")
struct ChildStoreTests {
    @Test("A child store reads the parent's part and dispatches the embedded action")
    func childDispatchesEmbeddedAction() async {
        let store = Store(state: makeComposedState(), reducer: composedReducer)
        let search = store.scope(state: \.search, action: ComposedAction.search)

        await search.dispatch(.queryChanged("swift"))

        #expect(store.state.search.query == "swift")
        #expect(search.state == SearchFeature(query: "swift"))
        #expect(search.query == "swift")
    }

    @Test("A child's dispatch returns when the work its action caused is finished")
    func childDispatchKeepsTheContract() async {
        let loads = Recorder<String>()
        let store = Store(state: makeComposedState(), reducer: composedReducer) {
            scopeMiddleware(
                { (state: SearchFeature, action: SearchAction, dispatch: Dispatcher<SearchAction>) in
                    guard case .queryChanged(let query) = action else { return }
                    loads.append(query)
                    await dispatch(.resultsLoaded([query + "!"]))
                },
                state: \ComposedState.search, action: \ComposedAction.search, embed: ComposedAction.search)
        }
        let search = store.scope(state: \.search, action: ComposedAction.search)

        await search.dispatch(.queryChanged("a"))

        #expect(loads.values == ["a"])
        #expect(search.results == ["a!"])
    }

    @Test("Scoping the same part from the same place returns the same child store")
    func sameScopeSameChild() {
        let store = Store(state: makeComposedState(), reducer: composedReducer)
        let scoped = (0..<2).map { _ in store.scope(state: \.search, action: ComposedAction.search) }

        #expect(scoped[0] === scoped[1])
    }

    @Test("Two scopes of one part with different action cases are two child stores, each with its own case")
    func sameStateDifferentActionRoutes() async {
        enum RoutedAction: Sendable { case left(Int), right(Int) }
        let routed = Recorder<String>()
        let store = Store(state: 0, reducer: { (state: Int, action: RoutedAction) in
            switch action {
            case .left(let value): routed.append("left"); return state + value
            case .right(let value): routed.append("right"); return state - value
            }
        })
        let left = store.scope(state: \.self, action: RoutedAction.left)
        let right = store.scope(state: \.self, action: RoutedAction.right)

        await left.dispatch(1)
        await right.dispatch(1)

        #expect(left !== right)
        #expect(routed.values == ["left", "right"])
    }

    @Test("Two child types of the same part are different child stores")
    func differentChildTypesDifferentChildren() async {
        let store = Store(state: makeComposedState(), reducer: composedReducer)
        let embedded = store.scope(state: \.search, action: ComposedAction.search)
        let counting = store.scope(state: \.search, action: { (_: Int) in ComposedAction.bumpOther })

        await counting.dispatch(1)
        await embedded.dispatch(.queryChanged("x"))

        #expect(store.state.other == 1)
        #expect(store.state.search.query == "x")
    }

    @Test("A child store never keeps its parent alive")
    func childDoesNotRetainParent() {
        var store: Store<ComposedState, ComposedAction>? = Store(state: makeComposedState(), reducer: composedReducer)
        weak let weakStore = store
        let child = store!.scope(state: \.search, action: ComposedAction.search)
        store = nil

        #expect(weakStore == nil)
        #expect(!child.isActive)
    }

    @Test("A grandchild keeps working when nothing holds the child in between")
    func grandchildOutlivesChild() async {
        let store = Store(state: makeComposedState(), reducer: composedReducer)
        var child: ChildStore<ComposedState, ComposedAction>? = store.scope(state: \.self, action: { $0 })
        let grandchild = child!.scope(state: \.search, action: ComposedAction.search)
        weak let weakChild = child
        child = nil

        #expect(weakChild == nil)
        await grandchild.dispatch(.queryChanged("deep"))
        #expect(store.state.search.query == "deep")
        #expect(grandchild.query == "deep")
    }

    @Test("An optional part gives a child store only while it is not nil")
    func optionalScope() async {
        let store = Store(state: makeComposedState(), reducer: composedReducer)
        #expect(store.scope(state: \.detail, action: ComposedAction.detail) == nil)

        await store.dispatch(.present(DetailState(id: 1, title: "One")))
        let detail = try! #require(store.scope(state: \.detail, action: ComposedAction.detail))
        await detail.dispatch(.titleChanged("Uno"))

        #expect(store.state.detail?.title == "Uno")
        #expect(detail.title == "Uno")
        #expect(detail.isActive)
    }

    @Test("A dismissed child keeps its last state, and its dispatches are reported and dropped")
    func dismissedChildKeepsLastState() async {
        let store = Store(state: makeComposedState(), reducer: composedReducer)
        await store.dispatch(.present(DetailState(id: 1, title: "One")))
        let detail = try! #require(store.scope(state: \.detail, action: ComposedAction.detail))

        await store.dispatch(.dismiss)

        #expect(detail.state == DetailState(id: 1, title: "One"))
        #expect(!detail.isActive)
        await withKnownIssue {
            await detail.dispatch(.titleChanged("late"))
        } matching: { $0.description.contains("whose state is gone") }
        withKnownIssue {
            detail.send(.titleChanged("later"))
        } matching: { $0.description.contains("whose state is gone") }
        #expect(store.state.detail == nil)
    }

    @Test("A row of an identified collection gives a child store by id; a removed row behaves like a dismissed one")
    func rowScope() async {
        let store = Store(state: makeComposedState(rows: 3), reducer: composedReducer)
        let rowStore = { (id: Int) in store.scope(state: \.rows, id: id, action: ComposedAction.row) }
        let row = try! #require(rowStore(2))
        #expect(rowStore(9) == nil)
        #expect(rowStore(2) === row)

        await row.dispatch(.increment)
        #expect(store.state.rows.map(\.count) == [0, 1, 0])
        #expect(row.count == 1)

        await store.dispatch(.removeRow(2))
        #expect(row.state == RowFeature(id: 2, count: 1))
        await withKnownIssue {
            await row.dispatch(.increment)
        } matching: { $0.description.contains("whose state is gone") }
    }

    @Test("scope(forEach:) gives one child store per row, in order")
    func forEachScope() {
        let store = Store(state: makeComposedState(rows: 3), reducer: composedReducer)
        let scoped = (0..<2).map { _ in store.scope(forEach: \.rows, action: ComposedAction.row) }

        #expect(scoped[0].map(\.state.id) == [1, 2, 3])
        #expect(zip(scoped[0], scoped[1]).allSatisfy { $0 === $1 })
    }

    @Test("A child's send runs the reducer before it returns; its work belongs to the root store")
    func childSendWorkBelongsToRoot() async {
        let gate = Gate()
        let finished = Recorder<Int>()
        let store = Store(state: makeComposedState(), reducer: composedReducer, middlewares: [
            { _, action, _ in
                guard action == .search(.queryChanged("slow")) else { return }
                await gate.pass()
                finished.append(1)
            },
        ])
        var child: ChildStore<SearchFeature, SearchAction>? = store.scope(state: \.search, action: ComposedAction.search)

        let task = child!.send(.queryChanged("slow"))
        #expect(store.state.search.query == "slow")
        child = nil
        await gate.arrival()
        gate.open()
        await task.value

        #expect(finished.values == [1])
    }

    @Test("Dispatching to a child of a released store is reported and dropped")
    func childOfReleasedStore() async {
        var store: Store<ComposedState, ComposedAction>? = Store(state: makeComposedState(), reducer: composedReducer)
        let child = store!.scope(state: \.search, action: ComposedAction.search)
        store = nil

        await withKnownIssue {
            await child.dispatch(.queryChanged("x"))
        } matching: { $0.description.contains("released") }
    }

    @Test("An effect registered on a child store reacts to its actions and dispatches through it")
    func effectOnChildStore() async {
        let store = Store(state: makeComposedState(), reducer: composedReducer)
        let search = store.scope(state: \.search, action: ComposedAction.search)
        let registration = search.register(Effect { actions in
            actions.compactMap { action -> SearchAction? in
                guard case .queryChanged(let query) = action else { return nil }
                return .resultsLoaded([query.uppercased()])
            }
        })

        await search.dispatch(.queryChanged("abc"))

        #expect(store.state.search.results == ["ABC"])
        registration.cancel()
    }

    @Test("A child store's selection yields the part's distinct values")
    func childSelection() async {
        let store = Store(state: makeComposedState(), reducer: composedReducer)
        let search = store.scope(state: \.search, action: ComposedAction.search)
        var queries = search.select(\.query).makeAsyncIterator()

        #expect(await queries.next() == "")
        await store.dispatch(.increment)
        await search.dispatch(.queryChanged("q"))
        #expect(await queries.next() == "q")
    }

    @Test("A mock store scopes like a store: a feature's view model is tested with a mock of the parent")
    func mockStoreScope() async {
        let mock = MockStore<ComposedState, ComposedAction>(state: makeComposedState())
        let search = mock.scope(state: \.search, action: ComposedAction.search)

        await search.dispatch(.queryChanged("mock"))
        #expect(mock.recordedActions == [.search(.queryChanged("mock"))])

        var state = mock.state
        state.search.query = "set"
        mock.setState(state)
        #expect(search.query == "set")
        #expect(mock.scope(state: \.search, action: ComposedAction.search) !== search)
    }

    @Test("A feature's view model is tested with a mock of its own part")
    func viewModelOnMockOfItsPart() async {
        let mock = MockStore<SearchFeature, SearchAction>(state: SearchFeature())
        let model = SearchModel(store: mock)

        model.queryChanged("typed")

        #expect(mock.recordedActions == [.queryChanged("typed")])
    }
}

/// A view model written against the protocol, with no async entry point.
@MainActor
final class SearchModel {
    let store: any StoreProtocol<SearchFeature, SearchAction>

    init(store: some StoreProtocol<SearchFeature, SearchAction>) {
        self.store = store
    }

    func queryChanged(_ query: String) {
        store.send(.queryChanged(query))
    }
}
