import Lockstep

// A small app of three features (a search, a presented detail, a list of rows) used by the
// composition, observation and cancellation tests.

struct SearchFeature: Equatable, Sendable {
    var query = ""
    var results: [String] = []
}

enum SearchAction: Equatable, Sendable {
    case queryChanged(String)
    case resultsLoaded([String])
}

struct DetailState: Equatable, Sendable, Identifiable {
    var id: Int
    var title: String
}

enum DetailAction: Equatable, Sendable {
    case titleChanged(String)
    case save
    case saved
}

struct RowFeature: Equatable, Sendable, Identifiable {
    var id: Int
    var count = 0
}

enum RowAction: Equatable, Sendable {
    case increment
    case load
    case loaded
}

struct ComposedState: Equatable, Sendable {
    var counter = 0
    var other = 0
    var search = SearchFeature()
    var detail: DetailState?
    var rows: [RowFeature] = []
}

enum ComposedAction: Equatable, Sendable {
    case increment
    case bumpOther
    case search(SearchAction)
    case detail(DetailAction)
    case row(id: Int, action: RowAction)
    case present(DetailState)
    case dismiss
    case removeRow(Int)

    var search: SearchAction? {
        if case .search(let action) = self { action } else { nil }
    }

    var detail: DetailAction? {
        if case .detail(let action) = self { action } else { nil }
    }

    var row: (Int, RowAction)? {
        if case .row(let id, let action) = self { (id, action) } else { nil }
    }
}

let searchReducer: InPlaceReducer<SearchFeature, SearchAction> = { state, action in
    switch action {
    case .queryChanged(let query): state.query = query
    case .resultsLoaded(let results): state.results = results
    }
}

let detailReducer: InPlaceReducer<DetailState, DetailAction> = { state, action in
    switch action {
    case .titleChanged(let title): state.title = title
    case .save, .saved: break
    }
}

let rowReducer: InPlaceReducer<RowFeature, RowAction> = { state, action in
    if action == .increment || action == .loaded { state.count += 1 }
}

let coreReducer: InPlaceReducer<ComposedState, ComposedAction> = { state, action in
    switch action {
    case .increment: state.counter += 1
    case .bumpOther: state.other += 1
    case .present(let detail): state.detail = detail
    case .dismiss: state.detail = nil
    case .removeRow(let id): state.rows.removeAll { $0.id == id }
    case .search, .detail, .row: break
    }
}

let composedReducer = combineReducers(
    coreReducer,
    scopeReducer(searchReducer, state: \ComposedState.search, action: \ComposedAction.search),
    ifLetReducer(detailReducer, state: \ComposedState.detail, action: \ComposedAction.detail),
    forEachReducer(rowReducer, state: \ComposedState.rows, action: \ComposedAction.row)
)

func makeComposedState(rows: Int = 3) -> ComposedState {
    ComposedState(rows: (1...max(rows, 1)).prefix(rows).map { RowFeature(id: $0) })
}
