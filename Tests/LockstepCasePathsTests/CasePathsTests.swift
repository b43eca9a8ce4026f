import LockstepCasePathsTesting
import Lockstep
import Testing

// An app of four features whose actions are @CasePathable: a search, a presented detail, rows
// and a navigation stack. Each lifter and scope is called with a case key path alone.

struct SearchState: Equatable, Sendable {
    var query = ""
    var results: [String] = []
}

@CasePathable
enum SearchAction: Equatable, Sendable {
    case queryChanged(String)
    case resultsLoaded([String])
}

struct DetailState: Equatable, Sendable, Identifiable {
    var id: Int
    var title: String
}

@CasePathable
enum DetailAction: Equatable, Sendable {
    case titleChanged(String)
    case save
    case saved
}

struct RowState: Equatable, Sendable, Identifiable {
    var id: Int
    var count = 0
}

@CasePathable
enum RowAction: Equatable, Sendable {
    case increment
    case load
    case loaded
}

struct AppState: Equatable, Sendable {
    var search = SearchState()
    var detail: DetailState?
    var rows: [RowState] = [RowState(id: 1), RowState(id: 2)]
    var path = StackState<RowState>()
}

@CasePathable
enum AppAction: Equatable, Sendable {
    case search(SearchAction)
    case detail(DetailAction)
    case row(id: Int, action: RowAction)
    case path(StackAction<RowState, RowAction>)
    case present(DetailState)
    case dismiss
    case removeRow(Int)
}

let searchReducer: InPlaceReducer<SearchState, SearchAction> = { state, action in
    switch action {
    case .queryChanged(let query): state.query = query
    case .resultsLoaded(let results): state.results = results
    }
}

let detailReducer: Reducer<DetailState, DetailAction> = { state, action in
    var state = state
    if case .titleChanged(let title) = action { state.title = title }
    return state
}

let rowReducer: InPlaceReducer<RowState, RowAction> = { row, action in
    if action == .increment || action == .loaded { row.count += 1 }
}

let rowValueReducer: Reducer<RowState, RowAction> = { row, action in
    var row = row
    rowReducer(&row, action)
    return row
}

let coreReducer: InPlaceReducer<AppState, AppAction> = { state, action in
    switch action {
    case .present(let detail): state.detail = detail
    case .dismiss: state.detail = nil
    case .removeRow(let id): state.rows.removeAll { $0.id == id }
    default: break
    }
}

let appReducer: InPlaceReducer<AppState, AppAction> = combineReducers(
    coreReducer,
    scopeReducer(searchReducer, state: \.search, action: \.search),
    ifLetReducer(detailReducer, state: \.detail, action: \.detail),
    forEachReducer(rowReducer, state: \.rows, action: \.row),
    forEachReducer(rowReducer, state: \.path, action: \.path)
)

/// The same reducer, with the value-form lifters of rows and of the stack.
let appValueFormReducer: InPlaceReducer<AppState, AppAction> = combineReducers(
    coreReducer,
    scopeReducer(searchReducer, state: \.search, action: \.search),
    ifLetReducer(detailReducer, state: \.detail, action: \.detail),
    forEachReducer(rowValueReducer, state: \.rows, action: \.row),
    forEachReducer(rowValueReducer, state: \.path, action: \.path)
)

/// A row's middleware that loads once `gate` opens, and records whether it was cancelled.
func loadingMiddleware(gate: Gate, events: Recorder) -> PlainMiddleware<RowState, RowAction> {
    { row, action, dispatch in
        guard action == .load else { return }
        await gate.pass()
        events.append("\(row.id) \(Task.isCancelled ? "cancelled" : "loaded")")
        if !Task.isCancelled { await dispatch(.loaded) }
    }
}

/// An action written for both forms: @CasePathable, and an extraction property per case.
@CasePathable
enum MixedAction: Equatable, Sendable {
    case search(SearchAction)
    case other

    var search: SearchAction? {
        if case .search(let action) = self { action } else { nil }
    }
}

struct MixedState: Equatable, Sendable {
    var search = SearchState()
}

/// Strings appended from any task.
final class Recorder: Sendable {
    private let strings = Lock<[String]>([])

    func append(_ string: String) { strings.withLock { $0.append(string) } }
    var values: [String] { strings.withLock { $0 } }
}

@MainActor
@Suite("Case key paths")
struct CasePathsTests {
    @Test("scopeReducer, ifLetReducer and forEachReducer of rows and of a stack take a case key path")
    func reducers() async {
        for reducer in [appReducer, appValueFormReducer] {
            let store = TestStore(state: AppState(), reducer: reducer)
            await store.send(.search(.queryChanged("dune"))) { $0.search.query = "dune" }
            await store.send(.present(DetailState(id: 1, title: "A"))) { $0.detail = DetailState(id: 1, title: "A") }
            await store.send(.detail(.titleChanged("B"))) { $0.detail?.title = "B" }
            await store.send(.row(id: 2, action: .increment)) { $0.rows[1].count = 1 }
            await store.send(.path(.push(RowState(id: 9)))) { $0.path.append(RowState(id: 9)) }
            await store.send(.path(.element(id: 0, action: .increment))) { $0.path[0].count = 1 }
            await store.send(.path(.popFrom(id: 0))) { $0.path.removeAll() }
        }
    }

    @Test("The value-form scopeReducer takes a case key path")
    func valueFormScopeReducer() {
        let reducer: Reducer<AppState, AppAction> = scopeReducer(
            { (state: SearchState, action: SearchAction) in
                var state = state
                searchReducer(&state, action)
                return state
            },
            state: \.search, action: \.search)
        #expect(reducer(AppState(), .search(.queryChanged("x"))).search.query == "x")
        #expect(reducer(AppState(), .dismiss) == AppState())
    }

    @Test("An ifLetReducer of a case key path reports an action for a nil part")
    func ifLetReportsMissingState() async {
        let store = Store(state: AppState(), reducer: appReducer)
        await withKnownIssue {
            await store.dispatch(.detail(.save))
        } matching: { $0.description.contains("its optional state is nil") }
    }

    @Test("scopeMiddleware embeds the feature's dispatches in the case; TestStore.receive takes the case")
    func scopeMiddlewareAndReceive() async {
        let search: Middleware<SearchState, SearchAction, String> = { state, action, suffix, dispatch in
            guard case .queryChanged(let query) = action else { return }
            await dispatch(.resultsLoaded([query + suffix]))
        }
        let store = TestStore(
            state: AppState(), reducer: appReducer, services: "!") {
            scopeMiddleware(search, state: \.search, action: \.search)
        }

        await store.send(.search(.queryChanged("a"))) { $0.search.query = "a" }
        await store.receive(\.search.resultsLoaded) { $0.search.results = ["a!"] }
        await store.send(.search(.queryChanged("b"))) { $0.search.query = "b" }
        await store.receive(\.search.resultsLoaded, ["b!"]) { $0.search.results = ["b!"] }
        await store.send(.search(.queryChanged("c"))) { $0.search.query = "c" }
        await store.receive(\.search) { $0.search.results = ["c!"] }
    }

    @Test("TestStore.receive of a case key path reports another case, or another value")
    func receiveMismatch() async {
        let plain: PlainMiddleware<SearchState, SearchAction> = { _, action, dispatch in
            guard case .queryChanged(let query) = action else { return }
            await dispatch(.resultsLoaded([query]))
        }
        let store = TestStore(
            state: AppState(), reducer: appReducer) {
            scopeMiddleware(plain, state: \.search, action: \.search)
        }

        await store.send(.search(.queryChanged("a"))) { $0.search.query = "a" }
        await withKnownIssue {
            await store.receive(\.detail)
        } matching: { $0.description.contains("another case than expected") }

        await store.send(.search(.queryChanged("b"))) { $0.search.query = "b" }
        await withKnownIssue {
            await store.receive(\.search.resultsLoaded, ["x"])
        } matching: { $0.description.contains("of the expected case with another value") }
        store.exhaustivity = .off
    }

    @Test("A scoped test store takes a case key path")
    func scopedTestStore() async {
        let store = TestStore(state: AppState(), reducer: appReducer)
        let search = store.scope(state: \.search, action: \.search)
        await search.send(.queryChanged("dune")) { $0.query = "dune" }
    }

    @Test("ifLetMiddleware of a case key path cancels the dismissed part's work")
    func ifLetMiddlewareCancels() async {
        let gate = Gate()
        let events = Recorder()
        let detail: Middleware<DetailState, DetailAction, Void> = { state, action, _, dispatch in
            guard action == .save else { return }
            await gate.pass()
            events.append("\(state.id) \(Task.isCancelled ? "cancelled" : "saved")")
            if !Task.isCancelled { await dispatch(.saved) }
        }
        let store = TestStore(
            state: AppState(), reducer: appReducer, services: ()) {
            ifLetMiddleware(detail, state: \.detail, action: \.detail)
        }

        await store.send(.present(DetailState(id: 1, title: "A"))) { $0.detail = DetailState(id: 1, title: "A") }
        let save = await store.send(.detail(.save))
        await store.send(.dismiss) { $0.detail = nil }
        await save.finish()
        #expect(events.values == ["1 cancelled"])

        gate.open()
        let plain: PlainMiddleware<DetailState, DetailAction> = { _, action, dispatch in
            if action == .save { await dispatch(.saved) }
        }
        let other = TestStore(
            state: AppState(detail: DetailState(id: 2, title: "B")), reducer: appReducer) {
            ifLetMiddleware(plain, state: \.detail, action: \.detail)
        }
        await other.send(.detail(.save))
        await other.receive(\.detail.saved)
    }

    @Test("forEachMiddleware of rows and of a stack, with case key paths, cancel a removed row's and a popped screen's work")
    func forEachMiddlewares() async {
        let gate = Gate()
        let events = Recorder()
        let load = loadingMiddleware(gate: gate, events: events)
        let withServices: Middleware<RowState, RowAction, Void> = { row, action, _, dispatch in
            await load(row, action, dispatch)
        }
        let store = TestStore(
            state: AppState(path: [RowState(id: 7)]), reducer: appReducer, services: ()) {
            forEachMiddleware(withServices, state: \.rows, action: \.row)
            forEachMiddleware(withServices, state: \.path, action: \.path)
        }

        let rowLoad = await store.send(.row(id: 1, action: .load))
        let screenLoad = await store.send(.path(.element(id: 0, action: .load)))
        await store.send(.removeRow(1)) { $0.rows.removeFirst() }
        await store.send(.path(.popFrom(id: 0))) { $0.path.removeAll() }
        await rowLoad.finish()
        await screenLoad.finish()
        #expect(Set(events.values) == ["1 cancelled", "7 cancelled"])

        gate.open()
        let plainStore = TestStore(
            state: AppState(path: [RowState(id: 7)]), reducer: appReducer) {
            forEachMiddleware(load, state: \.rows, action: \.row)
            forEachMiddleware(load, state: \.path, action: \.path)
        }
        await plainStore.send(.row(id: 2, action: .load))
        await plainStore.receive(\.row) { $0.rows[1].count = 1 }
        await plainStore.send(.path(.element(id: 0, action: .load)))
        await plainStore.receive(\.path, .element(id: 0, action: .loaded)) { $0.path[0].count = 1 }
    }

    @Test("scopeEffect of a case key path reads the feature's actions and embeds its own")
    func effect() async {
        let echo = Effect<SearchAction> { actions in
            actions.compactMap { action -> SearchAction? in
                guard case .queryChanged(let query) = action else { return nil }
                return .resultsLoaded([query])
            }
        }
        let store = Store(state: AppState(), reducer: appReducer, effects: [scopeEffect(echo, action: \.search)])
        await store.dispatch(.search(.queryChanged("dune")))
        #expect(store.state.search.results == ["dune"])
    }

    @Test("scope of a part, an optional part, rows and a stack take a case key path")
    func scopes() async {
        let store = Store(state: AppState(path: [RowState(id: 7)]), reducer: appReducer)

        let search = store.scope(state: \.search, action: \.search)
        await search.dispatch(.queryChanged("dune"))
        #expect(store.state.search.query == "dune")

        #expect(store.scope(state: \.detail, action: \.detail) == nil)
        await store.dispatch(.present(DetailState(id: 1, title: "A")))
        await store.scope(state: \.detail, action: \.detail)?.dispatch(.titleChanged("B"))
        #expect(store.state.detail?.title == "B")

        let rows = store.scope(forEach: \.rows, action: \.row)
        await rows[1].dispatch(.increment)
        await store.scope(state: \.rows, id: 1, action: \.row)?.dispatch(.increment)
        #expect(store.state.rows.map(\.count) == [1, 1])

        let screens = store.scope(forEach: \.path, action: \.path)
        await screens[0].dispatch(.increment)
        await store.scope(state: \.path, id: 0, action: \.path)?.dispatch(.increment)
        #expect(store.state.path[0].count == 2)
    }

    @Test("An action with an extraction property and @CasePathable is lifted and scoped with `\\.search` unambiguously")
    func mixedAction() async {
        let reducer: InPlaceReducer<MixedState, MixedAction> = scopeReducer(searchReducer, state: \.search, action: \.search)
        let echo: PlainMiddleware<SearchState, SearchAction> = { _, action, dispatch in
            if case .queryChanged(let query) = action { await dispatch(.resultsLoaded([query])) }
        }
        let store = TestStore(
            state: MixedState(), reducer: reducer) {
            scopeMiddleware(echo, state: \.search, action: \.search)
        }
        await store.send(.search(.queryChanged("a"))) { $0.search.query = "a" }
        await store.receive(\.search) { $0.search.results = ["a"] }

        let plain = Store(state: MixedState(), reducer: reducer)
        await plain.scope(state: \.search, action: \.search).dispatch(.queryChanged("b"))
        #expect(plain.state.search.query == "b")
    }

    @Test("An actor store's scope takes a case key path")
    func actorStoreScope() async {
        let store = ActorStore(state: AppState(), reducer: appReducer)
        let search = store.scope(state: \.search, action: \.search)
        await search.dispatch(.queryChanged("dune"))
        #expect(await search.state.query == "dune")
    }
}
