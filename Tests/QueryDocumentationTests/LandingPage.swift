// The code of LockstepQuery's landing page (Sources/LockstepQuery/Documentation.docc/LockstepQuery.md),
// which quotes it, and its test.
import Lockstep
import LockstepQuery
import Testing

struct Headline: Sendable, Identifiable {
    let id: Int
    let title: String
}

struct HeadlinesQuery: QueryRequest {
    func fetch(
        isolation: isolated (any Actor)?,
        in context: OperationContext,
        with continuation: OperationContinuation<[Headline], any Error>
    ) async throws -> [Headline] {
        try await context[NewsAPIKey.self].headlines()
    }
}

/// The news server's API, as a struct of closures.
struct NewsAPI: Sendable {
    var headlines: @Sendable () async throws -> [Headline]
}

extension NewsAPI {
    /// Stands for the app's live API, which would call the server.
    static let live = NewsAPI(headlines: { [Headline(id: 1, title: "Lockstep 0.1 is out")] })

    /// Fails the test that calls it.
    static let unimplemented = NewsAPI(headlines: IssueReporting.unimplemented("NewsAPI.headlines"))
}

enum NewsAPIKey: OperationContext.Key {
    static var defaultValue: NewsAPI { .unimplemented }
}

@Test("The landing page's query fetches through the API its client's context holds")
func headlinesLoad() async throws {
    let client = OperationClient()
    client.defaultContext[NewsAPIKey.self] = NewsAPI.live
    let headlines = try await client.store(for: HeadlinesQuery()).fetch()
    #expect(headlines.map(\.title) == ["Lockstep 0.1 is out"])
}
