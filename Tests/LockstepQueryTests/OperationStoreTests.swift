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
        let store = makeClient(automaticFetching: false).store(for: NameQuery("ada", backend: backend))

        let values = try await withTrackedWork { work in
            // Started by the test rather than by tracked work, the run is tracked work of its
            // own, so a tracked fetch that joins it counts as waiting for it.
            let first = await startingRun(of: store) { try await store.fetch() }
            await backend.gate!.arrival()
            let others = (1..<1_000).map { index in
                work.start("fetch \(index)") { try await store.fetch() }
            }
            // Every other fetch has joined the run, or started one of its own.
            await work.waitUntilParked()
            backend.gate!.open()
            var values = [try await first.value]
            for fetch in others {
                values.append(try #require(try await fetch.value()))
            }
            return values
        }

        #expect(backend.calls == 1)
        #expect(values.count == 1_000)
        #expect(Set(values) == ["ada #1"])
    }

    @Test func aFetchThatFindsARunInFlightJoinsIt() async throws {
        let backend = Backend(gated: true)
        let store = makeClient(automaticFetching: false).store(for: NameQuery("ada", backend: backend))
        try await withTrackedWork { work in
            let first = await startingRun(of: store) { try await store.fetch() }
            await backend.gate!.arrival()
            let run = try #require(store.activeTasks.first)

            let second = work.start("the second fetch") { try await store.fetch() }
            let joined = work.start("runIfNeeded") { try await run.runIfNeeded() }
            // The second fetch and runIfNeeded both wait for the run before it may end.
            await work.waitUntilParked()
            backend.gate!.open()

            #expect(try await first.value == "ada #1")
            #expect(try await second.value() == "ada #1")
            #expect(try await joined.value() == "ada #1")
            #expect(backend.calls == 1)
            #expect(store.activeTasks.isEmpty)
            #expect(try await run.runIfNeeded() == "ada #1")
        }
    }
}
