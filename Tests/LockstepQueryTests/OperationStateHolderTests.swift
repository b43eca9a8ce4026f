import Foundation
import LockstepQuery
import Testing

/// Where an operation stands, read through the protocol alone.
private func standing(_ holder: some OperationStateHolder) -> (status: OperationStatus, isLoading: Bool, error: BackendError?) {
    (holder.status, holder.isLoading, holder.error as? BackendError)
}

@Suite("OperationStateHolder")
@MainActor
struct OperationStateHolderTests {
    @Test("A store and a SharedOperation of it read status, isLoading and error from the state they hold")
    func aStoreAndItsWrapperReadWhereTheOperationStands() async throws {
        let backend = Backend()
        let client = makeClient(automaticFetching: false)
        let store = client.store(for: RecordName(backend: backend))
        let shared = SharedOperation(store: store)
        #expect(standing(store) == (.idle, false, nil))
        #expect(standing(shared) == (.idle, false, nil))

        backend.failNext(1)
        await #expect(throws: BackendError(call: 1)) { try await shared.mutate(with: "grace") }

        #expect(standing(store) == (.failure, false, BackendError(call: 1)))
        #expect(standing(shared) == (store.state.status, store.state.isLoading, store.state.error as? BackendError))

        try await store.mutate(with: "ada")
        #expect(standing(shared) == (.success, false, nil))
    }
}
