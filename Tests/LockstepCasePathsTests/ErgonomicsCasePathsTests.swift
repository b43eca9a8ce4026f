import LockstepCasePathsTesting
import Testing

// Row case paths (`\.row[id: 2].load`), bindings through case key paths (`\.binding.name`),
// `send` of a case key path, and the case-key-path lifts of a list of side effects.

struct NameFormState: Equatable, Sendable {
    var name = ""
    var isPublic = false
}

@CasePathable
enum NameFormAction: BindableAction, Equatable {
    case binding(BindingAction<NameFormState>)
    case clearTapped
}

let nameFormReducer: InPlaceReducer<NameFormState, NameFormAction> = combineReducers(
    bindingReducer(),
    { state, action in
        if action == .clearTapped { state.name = "" }
    }
)

/// Answers a row's `.load` with `.loaded`.
let rowLoader: PlainMiddleware<RowState, RowAction> = { _, action, dispatch in
    if action == .load { await dispatch(.loaded) }
}

@SideEffectBuilder<SearchState, SearchAction, String>
var searchSideEffects: [SideEffect<SearchState, SearchAction, String>] {
    { (state: SearchState, action: SearchAction, suffix: String, dispatch: Dispatcher<SearchAction>) in
        guard case .queryChanged(let query) = action else { return }
        await dispatch(.resultsLoaded([query + suffix]))
    }
}

@SideEffectBuilder<MeetingState, MeetingAction, Void>
var meetingSideEffects: [SideEffect<MeetingState, MeetingAction, Void>] {
    meetingMiddleware
}

@SideEffectBuilder<Path, PathAction, Void>
var meetingScreenSideEffects: [SideEffect<Path, PathAction, Void>] {
    scopeMiddleware(meetingSideEffects, state: \Path.Cases.meeting, action: \PathAction.Cases.meeting)
}

@MainActor
@Suite("Row case paths, bindings and send by case key path")
struct ErgonomicsCasePathsTests {
    @Test("\\.row[id:] names the actions of one row: it embeds them and extracts only that row's")
    func rowCasePathEmbedsAndExtracts() {
        let rowTwo: CaseKeyPath<AppAction, RowAction> = \.row[id: 2]
        #expect(rowTwo(.load) == .row(id: 2, action: .load))
        #expect(AppAction.row(id: 2, action: .load)[case: \.row[id: 2]] == .load)
        #expect(AppAction.row(id: 1, action: .load)[case: \.row[id: 2]] == nil)
        #expect(AppAction.row(id: 2, action: .load)[case: \.row[id: 2].load] != nil)
        #expect(AppAction.row(id: 2, action: .increment)[case: \.row[id: 2].load] == nil)
        #expect(AppAction.dismiss[case: \.row[id: 2]] == nil)
    }

    @Test("receive takes a row case path, and fails for another row")
    func receiveOfARowCasePath() async {
        let store = TestStore(state: AppState(), reducer: appReducer) {
            forEachMiddleware(rowLoader, state: \.rows, action: \.row)
        }
        await store.send(.row(id: 2, action: .load))
        await store.receive(\.row[id: 2].loaded) { $0.rows[1].count = 1 }

        await store.send(.row(id: 1, action: .load))
        await withKnownIssue {
            await store.receive(\.row[id: 2].loaded) { $0.rows[0].count = 1 }
        }
    }

    @Test("A middleware lifted with a row case path runs for that row's actions only")
    func liftWithARowCasePath() async {
        let store = TestStore(state: AppState(), reducer: appReducer) {
            scopeMiddleware(rowLoader, state: \.rows[1], action: \.row[id: 2])
        }
        await store.send(.row(id: 1, action: .load))
        await store.send(.row(id: 2, action: .load))
        await store.receive(\.row[id: 2].loaded) { $0.rows[1].count = 1 }
    }

    @Test("send takes a case key path and its value, or a case without one")
    func sendOfACaseKeyPath() async {
        let store = TestStore(state: AppState(), reducer: appReducer)
        await store.send(\.search.queryChanged, "dune") { $0.search.query = "dune" }
        await store.send(\.row[id: 1].increment) { $0.rows[0].count = 1 }
        await store.send(\.dismiss)
    }

    @Test("\\.binding.name sends and receives the binding of one field")
    func bindingCasePaths() async {
        let binding: CaseKeyPath<NameFormAction, String> = \.binding.name
        #expect(binding("Ada") == .binding(.set(\.name, "Ada")))
        let name: String? = NameFormAction.binding(.set(\.name, "Ada"))[case: \.binding.name]
        #expect(name == "Ada")
        #expect(NameFormAction.binding(.set(\.isPublic, true))[case: \.binding.name] == nil)

        let store = TestStore(initialState: NameFormState(), reducer: nameFormReducer) {
            { (_: NameFormState, action: NameFormAction, dispatch: Dispatcher<NameFormAction>) in
                if case .binding(\.isPublic) = action { await dispatch(.set(\.name, "public")) }
            }
        }
        await store.send(\.binding.name, "Ada") { $0.name = "Ada" }
        await store.send(.binding(.set(\.isPublic, true))) { $0.isPublic = true }
        await store.receive(\.binding.name, "public") { $0.name = "public" }
        await store.send(\.clearTapped) { $0.name = "" }
    }

    @Test("scopeMiddleware lifts a list of side effects with case key paths")
    func scopeMiddlewareOfAList() async {
        let store = TestStore(state: AppState(), reducer: appReducer, services: "!") {
            scopeMiddleware(searchSideEffects, state: \.search, action: \.search)
        }
        await store.send(.search(.queryChanged("a"))) { $0.search.query = "a" }
        await store.receive(\.search.resultsLoaded, ["a!"]) { $0.search.results = ["a!"] }
    }

    @Test("scopeMiddleware lifts a list of side effects of an enum case with case key paths")
    func scopeMiddlewareOfAListOfACase() async {
        let store = TestStore(state: ListState(path: [.meeting(MeetingState())]), reducer: listReducer) {
            forEachMiddleware(meetingScreenSideEffects, state: \ListState.path, action: \ListAction.Cases.path)
        }
        await store.send(.path(.element(id: 0, action: .meeting(.endTapped))))
        await store.receive(\.path.popFrom) { $0.path = [] }
    }

    @Test("A push is asserted as TCA writes it: $0.path[id: 0] = element")
    func pushAssertedByID() async {
        let store = TestStore(initialState: AppState(), reducer: appReducer)
        await store.send(.path(.push(RowState(id: 9)))) { $0.path[id: 0] = RowState(id: 9) }
        await store.send(\.path[id: 0].increment) { $0.path[id: 0]?.count = 1 }
        await store.send(.path(.push(RowState(id: 8)))) { $0.path[id: 1] = RowState(id: 8) }
    }
}
