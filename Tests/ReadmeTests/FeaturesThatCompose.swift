// The README's "Features that compose", as the README quotes it: the app's state and actions,
// then, in a test, the app's reducer, store and child stores. The features are small ones below.
import LockstepTesting
import Testing

struct AppState: Equatable, Sendable { var search = SearchState(); var detail: DetailState?; var books: [Book] = [] }
enum AppAction: Equatable, Sendable { case search(SearchAction), detail(DetailAction), book(id: Book.ID, action: BookAction) }

extension AppAction {
    var search: SearchAction? {
        if case .search(let action) = self { action } else { nil }
    }

    var detail: DetailAction? {
        if case .detail(let action) = self { action } else { nil }
    }

    var book: (Book.ID, BookAction)? {
        if case .book(let id, let action) = self { (id, action) } else { nil }
    }
}

@MainActor
@Suite("The README's features that compose")
struct FeaturesThatComposeTests {
    @Test("The lifted features run on their parts, through the child stores")
    func composedApp() async {
        let services = SearchServices(search: { query in ["\(query) in depth"] })
        let appReducer = combineReducers(
            scopeReducer(searchReducer, state: \AppState.search, action: \AppAction.search),
            ifLetReducer(detailReducer, state: \AppState.detail, action: \AppAction.detail),   // a presented screen
            forEachReducer(bookReducer, state: \AppState.books, action: \AppAction.book)       // a row per book
        )
        let store = Store(state: AppState(), reducer: appReducer, services: services) {
            scopeMiddleware(searchMiddleware, state: \AppState.search, action: \AppAction.search, embed: AppAction.search)
            ifLetMiddleware(detailMiddleware, state: \AppState.detail, action: \AppAction.detail, embed: AppAction.detail)
        }

        let searchStore = store.scope(state: \.search, action: AppAction.search)     // ChildStore<SearchState, SearchAction>
        let detailStore = store.scope(state: \.detail, action: AppAction.detail)     // nil while no detail is shown
        let rowStores = store.scope(forEach: \.books, action: AppAction.book)        // one child store per row
        await searchStore.dispatch(.queryChanged("swift"))                           // the parent's dispatch, same contract

        #expect(store.state.search.results == ["swift in depth"])
        #expect(detailStore == nil)
        #expect(rowStores.isEmpty)
    }
}

// MARK: - The features

struct Book: Equatable, Sendable, Identifiable {
    let id: Int
    var title: String
}

enum BookAction: Equatable, Sendable {
    case rename(String)
}

func bookReducer(_ book: inout Book, _ action: BookAction) {
    switch action {
    case .rename(let title): book.title = title
    }
}

struct SearchState: Equatable, Sendable {
    var query = ""
    var results: [String] = []
}

enum SearchAction: Equatable, Sendable {
    case queryChanged(String)
    case resultsLoaded([String])
}

func searchReducer(_ search: inout SearchState, _ action: SearchAction) {
    switch action {
    case .queryChanged(let query): search.query = query
    case .resultsLoaded(let results): search.results = results
    }
}

struct SearchServices: Sendable {
    var search: @Sendable (String) async -> [String]
}

func searchMiddleware(
    search: SearchState, action: SearchAction, services: SearchServices, dispatch: Dispatcher<SearchAction>
) async {
    guard case .queryChanged(let query) = action else { return }
    await dispatch(.resultsLoaded(await services.search(query)))
}

struct DetailState: Equatable, Sendable, Identifiable {
    let id: Book.ID
    var summary: String?
}

enum DetailAction: Equatable, Sendable {
    case load
    case loaded(String)
}

func detailReducer(_ detail: inout DetailState, _ action: DetailAction) {
    if case .loaded(let summary) = action { detail.summary = summary }
}

func detailMiddleware(
    detail: DetailState, action: DetailAction, services: SearchServices, dispatch: Dispatcher<DetailAction>
) async {
    guard action == .load else { return }
    await dispatch(.loaded("Book \(detail.id)"))
}
