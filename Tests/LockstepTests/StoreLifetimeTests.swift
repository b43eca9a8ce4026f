@testable import LockstepFixtures
import Lockstep
import Testing

/// Cancellation and lifetime: what stops the work a store started.
@MainActor
@Suite("Store lifetime and cancellation")
struct StoreLifetimeTests {
    @Test("Cancelling the dispatching task cancels the middleware it started")
    func cancellingDispatchCancelsMiddleware() async {
        let started = Signal()
        let sawCancellation = Lock(false)
        let store = Store(state: Counter(), reducer: counterReducer, middlewares: [
            { _, action, _ in
                guard action == .listen else { return }
                started.signal()
                await suspendUntilCancelled()
                sawCancellation.withLock { $0 = Task.isCancelled }
            },
        ])

        let task = Task { await store.dispatch(.listen) }
        await started.wait()
        task.cancel()
        await task.value

        #expect(sawCancellation.withLock { $0 })
    }

    @Test("Cancellation reaches the middleware of a nested dispatch")
    func cancellationReachesNestedMiddleware() async {
        let started = Signal()
        let sawCancellation = Lock(false)
        let store = Store(state: Counter(), reducer: counterReducer, middlewares: [
            { _, action, dispatch in
                switch action {
                case .increment:
                    await dispatch(.listen)
                case .listen:
                    started.signal()
                    await suspendUntilCancelled()
                    sawCancellation.withLock { $0 = Task.isCancelled }
                case .countdown:
                    break
                }
            },
        ])

        let task = Task { await store.dispatch(.increment) }
        await started.wait()
        task.cancel()
        await task.value

        #expect(sawCancellation.withLock { $0 })
    }

    @Test("A released store cancels the work it still runs")
    func releasedStoreCancelsItsWork() async {
        let started = Signal()
        let finished = Signal()
        let sawCancellation = Lock(false)
        var store: Store<Counter, CounterAction>? = Store(
            state: Counter(),
            reducer: counterReducer,
            middlewares: [
                { _, _, _ in
                    started.signal()
                    await suspendUntilCancelled()
                    sawCancellation.withLock { $0 = Task.isCancelled }
                    finished.signal()
                },
            ]
        )
        weak let weakStore = store

        store?.send(.listen)
        await started.wait()
        store = nil

        #expect(weakStore == nil)
        await finished.wait()
        #expect(sawCancellation.withLock { $0 })
    }

    @Test("A dispatcher kept by a middleware does not keep the store alive")
    func keptDispatcherDoesNotRetainStore() async throws {
        let kept = Lock<Dispatcher<CounterAction>?>(nil)
        var store: Store<Counter, CounterAction>? = Store(
            state: Counter(),
            reducer: counterReducer,
            middlewares: [{ _, _, dispatch in kept.withLock { $0 = dispatch } }]
        )
        weak let weakStore = store

        await store?.dispatch(.listen)
        store = nil

        #expect(weakStore == nil)
        // Dispatching to a released store drops the action, returns, and says so.
        let dispatcher = try #require(kept.withLock { $0 })
        await withKnownIssue {
            await dispatcher(.increment)
        } matching: { issue in
            issue.description.contains("increment was dispatched to a Store that has been released")
        }
    }

    @Test("A cancelled task's dispatch to a released store is dropped without a report")
    func cancelledDispatchToReleasedStoreIsQuiet() async throws {
        let kept = Lock<Dispatcher<CounterAction>?>(nil)
        var store: Store<Counter, CounterAction>? = Store(
            state: Counter(),
            reducer: counterReducer,
            middlewares: [{ _, _, dispatch in kept.withLock { $0 = dispatch } }]
        )
        await store?.dispatch(.listen)
        store = nil
        let dispatcher = try #require(kept.withLock { $0 })

        // A middleware that dispatches its failure action as its store goes away: no issue.
        let late = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await dispatcher(.increment)
        }
        await late.value
    }

    @Test("send reduces at once and its task finishes the side effects")
    func sendReducesAtOnceAndRunsSideEffects() async {
        let store = Store(state: Counter(), reducer: counterReducer, middlewares: [countdownMiddleware])

        let task = store.send(.countdown(2))
        #expect(store.state.log == [2])

        await task.value
        #expect(store.state.log == [2, 1, 0])
    }

    @Test("send on a store without middleware reduces and returns a finished task")
    func sendWithoutMiddlewareReduces() async {
        let store = Store(state: Counter(), reducer: counterReducer)

        await store.send(.increment).value

        #expect(store.state.value == 1)
    }

    @Test("Cancelling the task that send returned cancels its side effects")
    func cancellingSendTaskCancelsSideEffects() async {
        let started = Signal()
        let sawCancellation = Lock(false)
        let store = Store(state: Counter(), reducer: counterReducer, middlewares: [
            { _, _, _ in
                started.signal()
                await suspendUntilCancelled()
                sawCancellation.withLock { $0 = Task.isCancelled }
            },
        ])

        let task = store.send(.listen)
        await started.wait()
        task.cancel()
        await task.value

        #expect(sawCancellation.withLock { $0 })
    }
}
