@testable import LockstepFixtures
import Lockstep
import Testing

/// The dispatch contract on a store isolated to an actor of its own.
@Suite("ActorStore")
struct ActorStoreTests {
    @Test("Dispatch returns after nested middleware, to any depth")
    func dispatchReturnsAfterNestedMiddleware() async {
        let store = ActorStore(state: Counter(), reducer: counterReducer, middlewares: [countdownMiddleware])

        await store.dispatch(.countdown(50))

        #expect(await store.state.log == Array((0...50).reversed()))
    }

    @Test("The seed's initializer with services runs the middleware")
    func servicesReachTheMiddleware() async {
        let mockCalendar = MockCalendarService()
        mockCalendar.mockShifts = [testShift1, testShift2]
        let store = ActorStore(
            state: AppState(),
            reducer: appReducer,
            services: ServiceContainer(calendarService: mockCalendar),
            middlewares: [todayMiddleware]
        )

        await store.dispatch(action: .today(.loadShifts))

        #expect(await store.state.today.scheduledShifts == [testShift1, testShift2])
        #expect(mockCalendar.loadShiftsCallCount == 1)
    }

    @Test("Two middlewares run concurrently")
    func middlewaresRunConcurrently() async {
        let firstStarted = Signal()
        let secondStarted = Signal()
        let store = ActorStore(state: Counter(), reducer: counterReducer, middlewares: [
            { _, _, _ in
                firstStarted.signal()
                await secondStarted.wait()
            },
            { _, _, _ in
                secondStarted.signal()
                await firstStarted.wait()
            },
        ])

        await store.dispatch(.increment)

        #expect(await store.state.value == 1)
    }

    @Test("Of twenty middlewares, parked ones hold up none of the others, and cancellation reaches each")
    func parkedMiddlewaresHoldUpNoOthers() async {
        let parked = Lock(0)
        let ran = Lock(0)
        let sawCancellation = Lock(0)
        let allParked = Signal()
        let allRan = Signal()
        let middlewares: [PlainMiddleware<Counter, CounterAction>] = (0..<20).map { index in
            { _, _, _ in
                guard index.isMultiple(of: 5) else {
                    if ran.withLock({ $0 += 1; return $0 }) == 16 { allRan.signal() }
                    return
                }
                if parked.withLock({ $0 += 1; return $0 }) == 4 { allParked.signal() }
                await suspendUntilCancelled()
                sawCancellation.withLock { $0 += Task.isCancelled ? 1 : 0 }
            }
        }
        let store = ActorStore(state: Counter(), reducer: counterReducer, middlewares: middlewares)

        let dispatch = Task { await store.dispatch(.increment) }
        await allParked.wait()
        await allRan.wait()
        dispatch.cancel()
        await dispatch.value

        #expect(ran.withLock { $0 } == 16)
        #expect(sawCancellation.withLock { $0 } == 4)
    }

    @Test("Cancelling the dispatching task cancels the middleware it started")
    func cancellingDispatchCancelsMiddleware() async {
        let started = Signal()
        let sawCancellation = Lock(false)
        let store = ActorStore(state: Counter(), reducer: counterReducer, middlewares: [
            { _, _, _ in
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

    @Test("A released store cancels the work it still runs")
    func releasedStoreCancelsItsWork() async {
        let started = Signal()
        let finished = Signal()
        let sawCancellation = Lock(false)
        var store: ActorStore<Counter, CounterAction>? = ActorStore(
            state: Counter(),
            reducer: counterReducer,
            middlewares: [
                { _, action, dispatch in
                    // The work runs in a follow-up action, so the store's own dispatcher is on
                    // the path too.
                    if action == .increment {
                        await dispatch(.listen)
                        return
                    }
                    started.signal()
                    await suspendUntilCancelled()
                    sawCancellation.withLock { $0 = Task.isCancelled }
                    finished.signal()
                },
            ]
        )
        weak let weakStore = store

        await store?.send(.increment)
        await started.wait()
        store = nil

        #expect(weakStore == nil)
        await finished.wait()
        #expect(sawCancellation.withLock { $0 })
    }

    @Test("1,000 concurrent tasks dispatching 100 increments each end at exactly 100,000")
    func concurrentDispatchesAreAllReduced() async {
        let middlewareCalls = Lock(0)
        let store = ActorStore(state: Counter(), reducer: counterReducer, middlewares: [
            { _, _, _ in middlewareCalls.withLock { $0 += 1 } },
        ])

        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<1_000 {
                group.addTask {
                    for _ in 0..<100 {
                        await store.dispatch(.increment)
                    }
                }
            }
        }

        #expect(await store.state.value == 100_000)
        #expect(middlewareCalls.withLock { $0 } == 100_000)
    }

    @Test("A dispatch to a released ActorStore is dropped and reported")
    func dispatchToReleasedActorStoreIsReported() async throws {
        let kept = Lock<Dispatcher<CounterAction>?>(nil)
        var store: ActorStore<Counter, CounterAction>? = ActorStore(
            state: Counter(), reducer: counterReducer,
            middlewares: [{ _, _, dispatch in kept.withLock { $0 = dispatch } }])
        weak let weakStore = store
        await store?.dispatch(.listen)
        store = nil
        #expect(weakStore == nil)

        let dispatcher = try #require(kept.withLock { $0 })
        await withKnownIssue {
            await dispatcher(.increment)
        } matching: { issue in
            issue.description.contains("dispatched to an ActorStore that has been released")
        }
    }
}
