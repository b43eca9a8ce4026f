import Foundation
@testable import LockstepQuery
import LockstepTesting
import Testing

@Suite("OperationStore")
struct OperationStoreTests {
    @Test func fetchReturnsTheValueAndRecordsIt() async throws {
        let backend = Backend()
        let store = makeClient().store(for: NameQuery("ada", backend: backend))
        #expect(store.status == .idle)
        #expect(store.currentValue == nil)

        let value = try await store.fetch()

        #expect(value == "ada #1")
        #expect(store.currentValue == "ada #1")
        #expect(store.status == .success)
        #expect(store.state.valueUpdateCount == 1)
        #expect(store.state.valueLastUpdatedAt == fixedDate)
        #expect(store.error == nil)
        #expect(backend.calls == 1)
    }

    @Test func aRefetchIsLoadingWithTheOldValueKept() async throws {
        let backend = Backend(gated: true)
        backend.gate!.open()
        let store = makeClient().store(for: NameQuery("ada", backend: backend))
        try await store.fetch()
        backend.gate!.close()

        let refetch = Task { try await store.fetch() }
        await backend.gate!.arrival(count: 2)
        #expect(store.status == .loading)
        #expect(store.isLoading)
        #expect(store.currentValue == "ada #1")

        backend.gate!.open()
        #expect(try await refetch.value == "ada #2")
        #expect(store.status == .success)
        #expect(store.currentValue == "ada #2")
    }

    @Test func aFailureKeepsTheValueAndRecordsTheError() async throws {
        let backend = Backend()
        let store = makeClient().store(for: NameQuery("ada", backend: backend))
        try await store.fetch()
        backend.failNext(1)

        await #expect(throws: BackendError(call: 2)) { try await store.fetch() }

        #expect(store.status == .failure)
        #expect(store.error as? BackendError == BackendError(call: 2))
        #expect(store.currentValue == "ada #1")
        #expect(store.state.errorUpdateCount == 1)
        #expect(store.state.errorLastUpdatedAt == fixedDate)

        try await store.fetch()
        #expect(store.error == nil)
        #expect(store.status == .success)
    }

    @Test func overlappingFetchesShareOneRun() async throws {
        let backend = Backend(gated: true)
        let store = makeClient().store(for: NameQuery("ada", backend: backend))

        let values = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<1_000 {
                group.addTask { try await store.fetch() }
            }
            // Every fetch joins the run before it suspends; wait until all 1,000 are waiting.
            await backend.gate!.arrival()
            let run = try #require(store.activeTasks.first)
            await run.joins(count: 1_000)
            backend.gate!.open()
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(backend.calls == 1)
        #expect(values.count == 1_000)
        #expect(Set(values) == ["ada #1"])
    }

    @Test func aFetchThatFindsARunInFlightJoinsIt() async throws {
        let backend = Backend(gated: true)
        let store = makeClient().store(for: NameQuery("ada", backend: backend))
        let first = Task { try await store.fetch() }
        await backend.gate!.arrival()
        let run = try #require(store.activeTasks.first)

        let second = Task { try await store.fetch() }
        let joined = Task { try await run.runIfNeeded() }
        // The first fetch, the second and runIfNeeded have all joined the run before it may end.
        await run.joins(count: 3)
        backend.gate!.open()

        #expect(try await first.value == "ada #1")
        #expect(try await second.value == "ada #1")
        #expect(try await joined.value == "ada #1")
        #expect(backend.calls == 1)
        #expect(store.activeTasks.isEmpty)
        #expect(try await run.runIfNeeded() == "ada #1")
    }
}
