import Lockstep
import LockstepTesting
import Testing

@MainActor
@Suite("Scoped test stores")
struct ScopedTestStoreTests {
    let searchMiddleware = scopeMiddleware(
        { (_: SearchFeature, action: SearchAction, dispatch: Dispatcher<SearchAction>) in
            guard case .queryChanged(let query) = action else { return }
            await dispatch(.resultsLoaded([query.uppercased()]))
        },
        state: \ComposedState.search, action: \ComposedAction.search, embed: ComposedAction.search)

    @Test("A feature's flow is sent and received through its scoped test store, asserting its own part")
    func featureFlowThroughScopedTestStore() async {
        let store = TestStore(state: makeComposedState(), reducer: composedReducer) { searchMiddleware }
        let search = store.scope(state: \.search, action: ComposedAction.search)

        await search.send(.queryChanged("dune")) { $0.query = "dune" }
        await search.receive(.resultsLoaded(["DUNE"])) { $0.results = ["DUNE"] }

        #expect(search.state == SearchFeature(query: "dune", results: ["DUNE"]))
    }

    @Test("A wrong expectation about the feature's part fails, naming the difference")
    func wrongExpectationFails() async {
        let store = TestStore(state: makeComposedState(), reducer: composedReducer)
        let search = store.scope(state: \.search, action: ComposedAction.search)

        await withKnownIssue {
            await search.send(.queryChanged("dune")) { $0.query = "dun" }
        }
    }

    @Test("Rows are tested through a scoped test store of the collection and a grandchild scope")
    func nestedScopes() async {
        let store = TestStore(state: makeComposedState(rows: 2), reducer: composedReducer)
        let whole = store.scope(state: \.self, action: { (action: ComposedAction) in action })
        let search = whole.scope(state: \.search, action: ComposedAction.search)

        await search.send(.queryChanged("x")) { $0.query = "x" }
        await whole.send(.row(id: 2, action: .increment)) { $0.rows[1].count = 1 }
    }
}
