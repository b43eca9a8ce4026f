@testable import LockstepFixtures
@testable import Lockstep
import LockstepTesting
import Observation
import Testing

@MainActor
@Suite("Middleware concurrency")
struct MiddlewareConcurrencyTests {
    @Test("Two middlewares: the first parked on a gate, the second still runs")
    func parkedMiddlewareDoesNotHoldUpTheNext() async {
        let gate = Gate()
        let second = Gate()
        let events = Recorder<String>()
        let store = Store(state: Counter(), reducer: counterReducer, middlewares: [
            { _, _, _ in
                await gate.pass()
                events.append("first")
            },
            { _, _, _ in
                events.append("second")
                await second.pass()
            },
        ])

        let task = store.send(.increment)
        await gate.arrival()
        await second.arrival()
        #expect(events.values == ["second"])
        gate.open()
        second.open()
        await task.value
        #expect(Set(events.values) == ["first", "second"])
    }

    @Test("Twenty middlewares each run once per action, and dispatch returns when all are done")
    func twentyMiddlewaresRunOnce() async {
        let calls = Recorder<Int>()
        let gate = Gate()
        let middlewares: [PlainMiddleware<Counter, CounterAction>] = (0..<20).map { index in
            { _, _, _ in
                if index.isMultiple(of: 5) { await gate.pass() }
                calls.append(index)
            }
        }
        let store = Store(state: Counter(), reducer: counterReducer, middlewares: middlewares)

        let task = store.send(.increment)
        await gate.arrival(count: 4)
        #expect(calls.values.count == 16)
        gate.open()
        await task.value

        #expect(calls.values.sorted() == Array(0..<20))
    }

    @Test("Cancelling the dispatching task reaches every middleware")
    func cancellationReachesAll() async {
        let gate = Gate()
        let cancelled = Recorder<Int>()
        let middlewares: [PlainMiddleware<Counter, CounterAction>] = (0..<3).map { index in
            { _, _, _ in
                await gate.pass()
                if Task.isCancelled { cancelled.append(index) }
            }
        }
        let store = Store(state: Counter(), reducer: counterReducer, middlewares: middlewares)

        let task = Task { await store.dispatch(.increment) }
        await gate.arrival(count: 3)
        task.cancel()
        await task.value

        #expect(cancelled.values.sorted() == [0, 1, 2])
    }

    @Test("Cancelling the dispatching task reaches a store's only middleware", arguments: [false, true])
    func cancellationReachesOnlyMiddleware(viewObserving: Bool) async {
        let gate = Gate()
        let cancelled = Recorder<Bool>()
        let store = Store(state: Counter(), reducer: counterReducer, middlewares: [
            { _, _, _ in
                await gate.pass()
                cancelled.append(Task.isCancelled)
            },
        ])
        if viewObserving {
            withObservationTracking { _ = store.value } onChange: {}
        }

        let task = Task { await store.dispatch(.increment) }
        await gate.arrival()
        task.cancel()
        await task.value

        #expect(cancelled.values == [true])
    }

    @Test("A dispatch made by a cancelled task starts its middlewares cancelled", arguments: [1, 3])
    func cancelledCallerStartsMiddlewaresCancelled(count: Int) async {
        let seen = Recorder<Bool>()
        let middlewares: [PlainMiddleware<Counter, CounterAction>] = (0..<count).map { _ in
            { _, _, _ in seen.append(Task.isCancelled) }
        }
        let store = Store(state: Counter(), reducer: counterReducer, middlewares: middlewares)

        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await store.dispatch(.increment)
        }
        await task.value

        #expect(store.state.value == 1)
        #expect(seen.values == Array(repeating: true, count: count))
    }

    @Test("ActorStore: a parked middleware does not hold up the next")
    func actorStoreConcurrency() async {
        let gate = Gate()
        let events = Recorder<String>()
        let store = ActorStore(state: Counter(), reducer: counterReducer, middlewares: [
            { _, _, _ in
                await gate.pass()
                events.append("first")
            },
            { _, _, _ in events.append("second") },
        ])

        let task = Task { await store.dispatch(.increment) }
        await gate.arrival()
        await Task.detached {}.value
        gate.open()
        await task.value
        #expect(events.values.last == "first" || events.values == ["second", "first"])
        #expect(Set(events.values) == ["first", "second"])
    }
}
