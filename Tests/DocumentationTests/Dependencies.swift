// The app code of the article "Dependencies" (Sources/Lockstep/Documentation.docc/Dependencies.md),
// with only the imports an app's file has: IssueReporting's `unimplemented` comes with Lockstep.
// The article quotes it; SnippetTests checks that it still does. Its tests are in
// DependenciesTests.swift.
import Lockstep
import LockstepQuery

// MARK: - A dependency: a struct of closures

struct BookCatalog: Sendable {
    var search: @Sendable (_ query: String) async throws -> [String]
    var summary: @Sendable (_ title: String) async throws -> String
}

extension BookCatalog {
    /// A catalog of the books given, for previews, demos and tests.
    static func inMemory(_ summaries: [String: String]) -> BookCatalog {
        BookCatalog(
            search: { query in
                summaries.keys.filter { $0.localizedStandardContains(query) }.sorted()
            },
            summary: { title in
                guard let summary = summaries[title] else { throw CatalogUnavailable() }
                return summary
            }
        )
    }

    /// Fails the test that calls any endpoint it did not replace.
    static let unimplemented = BookCatalog(
        search: IssueReporting.unimplemented("BookCatalog.search"),
        summary: IssueReporting.unimplemented("BookCatalog.summary")
    )
}

struct CatalogUnavailable: Error {}

// MARK: - Every dependency of the app, in one value

struct AppServices: Sendable {
    var catalog: BookCatalog
}

extension AppServices {
    static let unimplemented = AppServices(catalog: .unimplemented)
}

// MARK: - Queries read the same value from their context

enum BookCatalogKey: OperationContext.Key {
    static var defaultValue: BookCatalog { .unimplemented }
}

struct BookSummaryQuery: QueryRequest {
    let title: String

    var path: OperationPath { ["summary", title] }

    func fetch(
        isolation: isolated (any Actor)?,
        in context: OperationContext,
        with continuation: OperationContinuation<String, any Error>
    ) async throws -> String {
        try await context[BookCatalogKey.self].summary(title)
    }
}

// MARK: - A feature that uses both

struct ShelfState: Equatable, Sendable {
    var results: [String] = []
    var summary: String?
}

enum ShelfAction: Equatable, Sendable {
    case search(String)
    case resultsLoaded([String])
    case summaryTapped(String)
    case summaryLoaded(String?)
}

let shelfReducer: InPlaceReducer<ShelfState, ShelfAction> = { state, action in
    switch action {
    case .search, .summaryTapped:
        break
    case .resultsLoaded(let results):
        state.results = results
    case .summaryLoaded(let summary):
        state.summary = summary
    }
}

func shelfSearchMiddleware(
    state: ShelfState,
    action: ShelfAction,
    services: AppServices,
    dispatch: Dispatcher<ShelfAction>
) async {
    guard case .search(let query) = action else { return }
    let results = (try? await services.catalog.search(query)) ?? []
    await dispatch(.resultsLoaded(results))
}

// MARK: - Wiring: one place hands the services to the store and to the queries

@MainActor
func makeShelfStore(services: AppServices, client: OperationClient) -> Store<ShelfState, ShelfAction> {
    client.defaultContext[BookCatalogKey.self] = services.catalog
    return Store(
        state: ShelfState(),
        reducer: shelfReducer,
        services: services,
        middlewares: [
            shelfSearchMiddleware,
            client.middleware(
                fetching: { (action: ShelfAction) -> BookSummaryQuery? in
                    guard case .summaryTapped(let title) = action else { return nil }
                    return BookSummaryQuery(title: title)
                },
                then: { result in .summaryLoaded(try? result.get()) }
            ),
        ]
    )
}
