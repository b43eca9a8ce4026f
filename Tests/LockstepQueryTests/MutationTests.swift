import Foundation
@testable import LockstepQuery
import LockstepTesting
import Testing

@Suite("Mutations")
struct MutationTests {
    @Test func eachMutateIsARunOfItsOwnKeptInTheHistory() async throws {
        let backend = Backend()
        let store = makeClient().store(for: RecordName(backend: backend))
        #expect(store.status == .idle)

        #expect(try await store.mutate(with: "a") == "a #1")
        #expect(try await store.mutate(with: "b") == "b #2")

        #expect(backend.calls == 2)
        #expect(store.currentValue == "b #2")
        #expect(store.status == .success)
        #expect(store.state.history.map(\.arguments) == ["a", "b"])
        #expect(store.state.history.map(\.status) == [.success, .success])
        #expect(store.state.history.map { try? $0.currentResult?.get() } == ["a #1", "b #2"])
        #expect(store.state.history.allSatisfy { $0.startDate == fixedDate })
    }

    @Test func concurrentMutationsAreNotMerged() async throws {
        let backend = Backend(gated: true)
        let store = makeClient().store(for: RecordName(backend: backend))
        let first = Task { try await store.mutate(with: "a") }
        let second = Task { try await store.mutate(with: "b") }
        await backend.gate!.arrival(count: 2)
        #expect(store.isLoading)
        #expect(store.activeTasks.count == 2)

        backend.gate!.open()
        let values = try await [first.value, second.value]
        #expect(Set(values.map { $0.prefix(1) }) == ["a", "b"])
        #expect(backend.calls == 2)
    }

    @Test func theHistoryKeepsItsLimit() async throws {
        let store = makeClient().store(for: ShortHistory())
        for index in 0..<5 {
            try await store.mutate(with: index)
        }
        #expect(store.state.history.map(\.arguments) == [3, 4])
    }

    @Test func aFailedMutationRecordsItsError() async {
        let backend = Backend(failures: 1)
        let store = makeClient().store(for: RecordName(backend: backend))
        await #expect(throws: BackendError(call: 1)) { try await store.mutate(with: "a") }
        #expect(store.status == .failure)
        #expect(store.error as? BackendError == BackendError(call: 1))
        #expect(store.currentValue == nil)
    }

    @Test func anOptimisticUpdateShowsAtOnceAndIsRolledBackOnFailure() async throws {
        let server = ProfileServer(name: "Ada")
        let client = makeClient()
        let profile = client.store(for: ProfileQuery(server: server))
        try await profile.fetch()
        let rename = client.store(for: RenameProfile(server: server))

        server.gate.close()
        server.failNextSave()
        let mutation = Task { try await rename.mutate(with: "Grace") }
        await server.gate.arrival()
        #expect(profile.currentValue == "Grace")   // shown before the server answers

        server.gate.open()
        await #expect(throws: ProfileServer.SaveFailed.self) { try await mutation.value }
        #expect(profile.currentValue == "Ada")     // rolled back
        #expect(rename.status == .failure)
    }

    @Test func aSuccessfulMutationInvalidatesAndRefetchesTheQuery() async throws {
        let server = ProfileServer(name: "Ada")
        let client = makeClient()
        let profile = client.store(for: ProfileQuery(server: server))
        let subscription = profile.subscribe(with: QueryEventHandler())
        await client.waitUntilIdle()
        #expect(server.reads == 1)

        try await client.store(for: RenameProfile(server: server)).mutate(with: "Grace")

        #expect(profile.currentValue == "Grace")
        #expect(server.reads == 2)   // the invalidation refetched from the server
        subscription.cancel()
    }
}

/// A server holding one name, whose saves pass a gate and can be made to fail.
final class ProfileServer: Sendable {
    struct SaveFailed: Error {}
    let gate = Gate()
    private let state: Lock<(name: String, reads: Int, failNext: Bool)>

    init(name: String) {
        state = Lock((name, 0, false))
        gate.open()
    }

    var reads: Int { state.withLock { $0.reads } }
    func failNextSave() { state.withLock { $0.failNext = true } }

    func read() -> String {
        state.withLock { state in
            state.reads += 1
            return state.name
        }
    }

    func save(_ name: String) async throws {
        await gate.pass()
        try state.withLock { state in
            if state.failNext {
                state.failNext = false
                throw SaveFailed()
            }
            state.name = name
        }
    }
}

struct ProfileQuery: QueryRequest {
    let server: ProfileServer
    var path: OperationPath { ["profile"] }
    static func == (lhs: Self, rhs: Self) -> Bool { true }
    func hash(into hasher: inout Hasher) {}

    func fetch(
        isolation: isolated (any Actor)?,
        in context: OperationContext,
        with continuation: OperationContinuation<String, any Error>
    ) async throws -> String {
        server.read()
    }
}

/// Renames the profile optimistically, rolls back on failure, and refetches on success.
struct RenameProfile: MutationRequest {
    let server: ProfileServer
    static func == (lhs: Self, rhs: Self) -> Bool { true }
    func hash(into hasher: inout Hasher) {}

    func mutate(
        isolation: isolated (any Actor)?,
        with arguments: String,
        in context: OperationContext,
        with continuation: OperationContinuation<String, any Error>
    ) async throws -> String {
        let profile = context.client!.store(for: ProfileQuery(server: server))
        let previous = profile.currentValue
        profile.currentValue = arguments
        do {
            try await server.save(arguments)
        } catch {
            profile.currentValue = previous
            throw error
        }
        await context.client?.invalidateStores(matching: ["profile"])
        return arguments
    }
}

/// A mutation that keeps two runs.
struct ShortHistory: MutationRequest {
    var historyLimit: Int { 2 }

    func mutate(
        isolation: isolated (any Actor)?,
        with arguments: Int,
        in context: OperationContext,
        with continuation: OperationContinuation<Int, any Error>
    ) async throws -> Int {
        arguments
    }
}
