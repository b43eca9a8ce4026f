// The README's "Queries: LockstepQuery", as the README quotes it, with the API it calls.
import Lockstep
import Observation
import Testing
import LockstepQuery

struct UserQuery: QueryRequest {
    let id: Int
    var path: OperationPath { ["users", id] }

    func fetch(
        isolation: isolated (any Actor)?,
        in context: OperationContext,
        with continuation: OperationContinuation<String, any Error>
    ) async throws -> String {
        try await context[UserAPIKey.self].userName(id)
    }
}

// The app sets the API in its client's context; the key's default fails the test that forgot to.
enum UserAPIKey: OperationContext.Key {
    static var defaultValue: UserAPI { .unimplemented }
}

@MainActor @Observable final class ProfileModel {
    @ObservationIgnored @SharedOperation(UserQuery(id: 42)) var name
}

@Test @MainActor func nameLoads() async throws {
    let client = OperationClient()
    client.defaultContext[UserAPIKey.self] = UserAPI(userName: { _ in "Ada" })
    let model = OperationClient.$current.withValue(client) { ProfileModel() }
    try await model.$name.load()
    #expect(model.name == "Ada")
}

/// The server the query asks, as a struct of closures.
struct UserAPI: Sendable {
    var userName: @Sendable (_ id: Int) async throws -> String
}

extension UserAPI {
    /// Fails the test that calls it.
    static let unimplemented = UserAPI(userName: IssueReporting.unimplemented("UserAPI.userName"))
}
