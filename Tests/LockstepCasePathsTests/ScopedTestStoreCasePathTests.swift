import LockstepCasePathsTesting
import Testing

/// A scoped test store has what a test store has: receive by case key path, exhaustivity,
/// `finish` and `assert`, and a case key path scope of an optional child.
@MainActor
@Suite("Scoped test stores with case key paths")
struct ScopedTestStoreCasePathTests {
    let searchMiddleware: SideEffect<AppState, AppAction, Void> = scopeMiddleware(
        { (_: SearchState, action: SearchAction, dispatch: Dispatcher<SearchAction>) in
            guard case .queryChanged(let query) = action else { return }
            await dispatch(.resultsLoaded([query.uppercased()]))
        },
        state: \AppState.search, action: \.search)

    let detailMiddleware: SideEffect<AppState, AppAction, Void> = ifLetMiddleware(
        { (_: DetailState, action: DetailAction, dispatch: Dispatcher<DetailAction>) in
            guard action == .save else { return }
            await dispatch(.saved)
        },
        state: \AppState.detail, action: \.detail)

    @Test("A scoped test store receives the feature's actions by case key path, with or without a value")
    func receiveByCaseKeyPath() async {
        let store = TestStore(state: AppState(), reducer: appReducer) { searchMiddleware }
        let search = store.scope(state: \.search, action: \.search)

        await search.send(.queryChanged("dune")) { $0.query = "dune" }
        await search.receive(\.resultsLoaded) { $0.results = ["DUNE"] }
        await search.send(.queryChanged("emma")) { $0.query = "emma" }
        await search.receive(\.resultsLoaded, ["EMMA"]) { $0.results = ["EMMA"] }
        await search.finish()
    }

    @Test("Receiving another case of the feature's action fails")
    func receiveOfAnotherCaseFails() async {
        let store = TestStore(state: AppState(), reducer: appReducer) { searchMiddleware }
        let search = store.scope(state: \.search, action: \.search)

        await search.send(.queryChanged("dune")) { $0.query = "dune" }
        await withKnownIssue {
            await search.receive(\.queryChanged)
        }
    }

    @Test("An optional child is scoped with its key path and a case key path: no force unwrap")
    func optionalChildScope() async {
        let store = TestStore(state: AppState(detail: DetailState(id: 1, title: "")), reducer: appReducer) {
            detailMiddleware
        }
        let detail = store.scope(state: \.detail, action: \.detail)

        #expect(detail.isPresent)
        await detail.send(.titleChanged("Dune")) { $0.title = "Dune" }
        await detail.send(.save)
        await detail.receive(\.saved)
        detail.assert { $0.title = "Dune" }
        await store.send(.dismiss) { $0.detail = nil }
        #expect(!detail.isPresent)
    }

    @Test("An assertion on an optional child that is not presented fails")
    func assertionOnAbsentChildFails() async {
        let store = TestStore(state: AppState(), reducer: appReducer)
        let detail = store.scope(state: \.detail, action: \.detail)

        withKnownIssue {
            detail.assert { $0.title = "Dune" }
        }
    }

    @Test("A scoped test store's exhaustivity is its parent's")
    func exhaustivityIsTheParents() async {
        let store = TestStore(state: AppState(), reducer: appReducer) { searchMiddleware }
        let search = store.scope(state: \.search, action: \.search)

        search.exhaustivity = .off
        #expect(store.exhaustivity == .off)
        await search.send(.queryChanged("dune"))
        await search.send(.queryChanged("emma"))
        #expect(search.state.results == ["EMMA"])
    }
}
