import Dependencies
import Foundation
import Lockstep
import LockstepCombine
import LockstepDependencies
import LockstepDependenciesTesting
import LockstepQuery
import LockstepTesting
import Testing

/// Reads its result from `uuid`; fails its first `failures` attempts.
private struct StampQuery: QueryRequest, Hashable {
    let attempts: Attempts

    var path: OperationPath { ["stamp"] }

    func fetch(
        isolation: isolated (any Actor)?,
        in context: OperationContext,
        with continuation: OperationContinuation<UUID, any Error>
    ) async throws -> UUID {
        @Dependency(\.uuid) var uuid
        let attempt = attempts.next()
        if attempt < attempts.failures { throw Offline() }
        return uuid()
    }

    struct Offline: Error {}

    final class Attempts: Hashable, Sendable {
        let failures: Int
        private let count = Lock(0)

        init(failures: Int) { self.failures = failures }

        func next() -> Int { count.withLock { value in defer { value += 1 }; return value } }

        static func == (lhs: Attempts, rhs: Attempts) -> Bool { lhs === rhs }
        func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    }
}

@MainActor
@Suite("Tasks the library starts for a store read its dependencies")
struct LibraryTaskDependenciesTests {
    private func makeStore(fetching query: some QueryRequest<UUID, any Error>) -> Store<ListState, ListAction> {
        let client = OperationClient()
        let fetch: PlainMiddleware<ListState, ListAction> = { _, action, dispatch in
            guard action == .load, let id = try? await client.store(for: query).fetch() else { return }
            await dispatch(.loaded(id))
        }
        return withDependencies {
            $0.uuid = .incrementing
        } store: {
            Store(state: ListState(), reducer: listReducer, middlewares: [fetch])
        }
    }

    @Test func aQueryRunReadsTheStoresDependencies() async {
        let store = makeStore(fetching: StampQuery(attempts: .init(failures: 0)))
        await Task.detached { await store.dispatch(.load) }.value
        #expect(store.state.fetched == [UUID(0)])
    }

    @Test func aRetriedQueryRunReadsTheStoresDependencies() async {
        let store = makeStore(
            fetching: StampQuery(attempts: .init(failures: 1))
                .retry(limit: 1)
                .backoff(.constant(.seconds(30)))
                .delayer(.clock(ImmediateClock())))
        await Task.detached { await store.dispatch(.load) }.value
        #expect(store.state.fetched == [UUID(0)])
    }

    @Test func aFetchABridgeStartsReadsTheStoresDependencies() async {
        let client = OperationClient()
        let query = StampQuery(attempts: .init(failures: 0))
        // The bridge's subscription starts the fetch; each state it reaches becomes an action.
        let bridge: PlainMiddleware<ListState, ListAction> = { _, action, dispatch in
            guard action == .load else { return }
            await client.store(for: query).bridge(to: dispatch) {
                $0.currentValue.map(ListAction.loaded) ?? .stamp
            }
        }
        let store = withDependencies {
            $0.uuid = .incrementing
        } store: {
            TestStore(state: ListState(), reducer: listReducer, middlewares: [bridge])
        }
        let task = await store.send(.load)
        await store.receive(.stamp)
        await store.receive(.stamp)
        await store.receive(.loaded(UUID(0))) { $0.fetched = [UUID(0)] }
        await task.cancel()
    }

    @Test func anEffectRunThroughCombineReadsTheDependenciesItWasSubscribedWith() async {
        let actions = PassthroughSubject<ListAction, Never>()
        let (outputs, continuation) = AsyncStream.makeStream(of: ListAction.self)
        let subscription = withDependencies {
            $0.uuid = .incrementing
        } operation: {
            stampEffect().source(actions).sink { continuation.yield($0) }
        }
        await Task.detached { actions.send(.stamp) }.value
        var received = outputs.makeAsyncIterator()
        #expect(await received.next() == .loaded(UUID(0)))
        subscription.cancel()
    }
}
