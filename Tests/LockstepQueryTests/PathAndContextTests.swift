import Foundation
import LockstepQuery
import Testing

@Suite("OperationPath and OperationContext")
struct PathAndContextTests {
    @Test func pathsMatchByPrefix() {
        let path: OperationPath = ["users", 42, "posts"]
        #expect(OperationPath().isPrefix(of: path))
        #expect(OperationPath(["users"]).isPrefix(of: path))
        #expect(OperationPath(["users", 42]).isPrefix(of: path))
        #expect(path.isPrefix(of: path))
        #expect(!OperationPath(["users", 43]).isPrefix(of: path))
        #expect(!path.isPrefix(of: ["users", 42]))
        #expect(path.count == 3)
        #expect(OperationPath(["users"]).appending(42).appending(OperationPath(["posts"])) == path)
    }

    @Test func elementsCompareByTypeAndValue() {
        #expect(OperationPath([1]) != OperationPath(["1"]))
        #expect(OperationPath([1]) == OperationPath([1]))
        #expect(OperationPath(["users", 42]).description == #"["users", 42]"#)
        #expect(OperationPath(OperationPath.Element("x")) == OperationPath(["x"]))
    }

    enum Greeting: OperationContext.Key {
        static var defaultValue: String { "hello" }
    }

    @Test func contextValuesReachTheQuery() async throws {
        var context = OperationContext()
        #expect(context[Greeting.self] == "hello")
        context[Greeting.self] = "bonjour"
        let client = OperationClient(defaultContext: context)

        #expect(try await client.store(for: GreetingQuery()).fetch() == "bonjour")

        client.defaultContext[Greeting.self] = "hallo"
        client.clearStores()
        #expect(try await client.store(for: GreetingQuery()).fetch() == "hallo")
    }

    @Test func theContextKnowsItsStoreAndClient() async throws {
        let client = OperationClient()
        let store = client.store(for: GreetingQuery())
        #expect(store.context.path == store.path)
        #expect(store.context.client === client)
        #expect(store.context.retryLimit == 0)
    }

    struct GreetingQuery: QueryRequest {
        func fetch(
            isolation: isolated (any Actor)?,
            in context: OperationContext,
            with continuation: OperationContinuation<String, any Error>
        ) async throws -> String {
            context[Greeting.self]
        }
    }
}
