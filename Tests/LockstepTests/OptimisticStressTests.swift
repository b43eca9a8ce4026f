import Lockstep
import Testing

// Many tasks at once make optimistic updates through one store, on a Store and on an ActorStore:
// the work of an even number succeeds, of an odd one fails, after a hop through an actor so that
// the updates interleave. Whatever the interleaving, each change is kept or rolled back alone:
// the state ends with every even number saved and no odd one, and each odd one failed once.
// Small on purpose (16 tasks of 25 updates); it runs under Thread Sanitizer with the rest of the
// suite.

struct OptimisticStressState: Equatable, Sendable {
    /// Each number added, and whether the server saved it.
    var items: [Int: Bool] = [:]
    var failures: [Int] = []
}

enum OptimisticStressAction: Equatable, Sendable {
    case submit(Int)
    case added(Int)
    case removed(Int)
    case saved(Int)
    case failed(Int)
}

func optimisticStressReducer(_ state: inout OptimisticStressState, _ action: OptimisticStressAction) {
    switch action {
    case .submit:
        break
    case .added(let n):
        if state.items[n] == nil { state.items[n] = false }
    case .removed(let n):
        state.items[n] = nil
    case .saved(let n):
        state.items[n] = true
    case .failed(let n):
        state.failures.append(n)
    }
}

/// The server of the test: every call hops through it, so that updates interleave.
actor OptimisticStressServer {
    struct Refused: Error {}

    private(set) var calls = 0

    func save(_ n: Int) throws(Refused) -> Int {
        calls += 1
        guard n.isMultiple(of: 2) else { throw Refused() }
        return n
    }
}

func optimisticStressMiddleware(server: OptimisticStressServer) -> PlainMiddleware<OptimisticStressState, OptimisticStressAction> {
    { _, action, dispatch in
        guard case .submit(let n) = action else { return }
        await dispatch.optimistically(.added(n), rollback: .removed(n)) { () async throws(OptimisticStressServer.Refused) -> Int in
            try await server.save(n)
        } success: { .saved($0) } failure: { _ in .failed(n) }
    }
}

@Suite("Stress: optimistic updates from many tasks")
struct OptimisticStressTests {
    static let tasks = 16
    static let updatesPerTask = 25

    static var expected: OptimisticStressState {
        let all = 0..<(tasks * updatesPerTask)
        return OptimisticStressState(
            items: Dictionary(uniqueKeysWithValues: all.filter { $0.isMultiple(of: 2) }.map { ($0, true) }),
            failures: all.filter { !$0.isMultiple(of: 2) })
    }

    /// Dispatches every update, `tasks` tasks at once.
    static func submitAll(_ dispatch: @escaping @Sendable (OptimisticStressAction) async -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for step in 0..<updatesPerTask {
                        await dispatch(.submit(task * updatesPerTask + step))
                    }
                }
            }
        }
    }

    /// Submits every update through `dispatch`, then checks the state `state` reads and the
    /// server's calls.
    static func check(
        server: OptimisticStressServer,
        dispatch: @escaping @Sendable (OptimisticStressAction) async -> Void,
        state: () async -> OptimisticStressState
    ) async {
        await submitAll(dispatch)
        var state = await state()
        state.failures.sort()
        #expect(state == expected)
        #expect(await server.calls == tasks * updatesPerTask)
    }

    @Test("On a Store, each update is kept or rolled back alone")
    func store() async {
        let server = OptimisticStressServer()
        let store = await Store(
            state: OptimisticStressState(), reducer: optimisticStressReducer,
            middlewares: [optimisticStressMiddleware(server: server)])
        await Self.check(server: server, dispatch: { await store.dispatch($0) }, state: { await store.state })
    }

    @Test("On an ActorStore, each update is kept or rolled back alone")
    func actorStore() async {
        let server = OptimisticStressServer()
        let store = ActorStore(
            state: OptimisticStressState(), reducer: optimisticStressReducer,
            middlewares: [optimisticStressMiddleware(server: server)])
        await Self.check(server: server, dispatch: { await store.dispatch($0) }, state: { await store.state })
    }
}
