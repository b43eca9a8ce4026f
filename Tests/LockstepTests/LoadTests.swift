import Foundation
import Lockstep
import Testing

/// One million actions, each reduced exactly once, from 1,000 concurrent tasks, through
/// middleware.
@Suite("Load")
struct LoadTests {
    /// Action `(task, index)`; each task sends its indices in order.
    struct Step: Sendable, Equatable {
        let task: Int
        let index: Int
    }

    struct Tally: Sendable, Equatable {
        /// How many steps of each task were reduced.
        var counts = [Int](repeating: 0, count: LoadTests.tasks)
        /// Steps that arrived out of their task's order, or twice.
        var misorders = 0
        var total = 0
    }

    static let tasks = 1_000
    static let perTask = 1_000

    static let reducer: Reducer<Tally, Step> = { tally, step in
        var tally = tally
        if tally.counts[step.task] != step.index { tally.misorders += 1 }
        tally.counts[step.task] += 1
        tally.total += 1
        return tally
    }

    /// Dispatches every step from `tasks` concurrent tasks, each sending its own in order.
    static func dispatchAll(_ dispatch: @escaping @Sendable (Step) async -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for index in 0..<perTask {
                        await dispatch(Step(task: task, index: index))
                    }
                }
            }
        }
    }

    @Test("1,000,000 actions from 1,000 tasks through middleware, each reduced exactly once (ActorStore)")
    func oneMillionActionsOnAnActorStore() async {
        let seen = Lock([Int](repeating: 0, count: Self.tasks))
        let store = ActorStore(
            state: Tally(), reducer: Self.reducer,
            middlewares: [{ _, step, _ in seen.withLock { $0[step.task] += 1 } }])

        await Self.dispatchAll { await store.dispatch($0) }

        let tally = await store.state
        #expect(tally.total == Self.tasks * Self.perTask)
        #expect(tally.misorders == 0)
        #expect(tally.counts.allSatisfy { $0 == Self.perTask })
        #expect(seen.withLock { $0 }.allSatisfy { $0 == Self.perTask })
    }
}

extension LoadTests {
    @Test("1,000,000 actions from 1,000 tasks through middleware, each reduced exactly once (Store)")
    @MainActor
    func oneMillionActionsOnTheMainActorStore() async {
        let seen = Lock([Int](repeating: 0, count: Self.tasks))
        let store = Store(
            state: Tally(), reducer: Self.reducer,
            middlewares: [{ _, step, _ in seen.withLock { $0[step.task] += 1 } }])

        await Self.dispatchAll { await store.dispatch($0) }

        #expect(store.state.total == Self.tasks * Self.perTask)
        #expect(store.state.misorders == 0)
        #expect(store.state.counts.allSatisfy { $0 == Self.perTask })
        #expect(seen.withLock { $0 }.allSatisfy { $0 == Self.perTask })
    }
}
