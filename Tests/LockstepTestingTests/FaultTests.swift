@testable import LockstepFixtures
import LockstepTesting
import Testing

/// Faults under the test toolkit: a service error and a cancellation seen through a `TestStore`,
/// and a throwing or cancelled effect on a `MockStore`.
@MainActor
@Suite("Faults: TestStore and MockStore")
struct TestingFaultTests {
    struct Boom: Error {}

    @Test("A service error reaches the test store as exactly one failure action; the store keeps its state and keeps working")
    func serviceErrorIsOneReceivedAction() async {
        let calendar = MockCalendarService()
        calendar.mockShifts = [testShift1]
        let store = TestStore(
            state: AppState(),
            reducer: appReducer,
            services: ServiceContainer(calendarService: calendar),
            middlewares: [todayMiddleware]
        )

        await store.send(.today(.loadShifts)) { $0.today.isLoading = true }
        await store.receive(.today(.shiftsLoaded(.success([testShift1])))) {
            $0.today.isLoading = false
            $0.today.scheduledShifts = [testShift1]
        }

        calendar.mockError = .unavailable
        await store.send(.today(.loadShifts)) { $0.today.isLoading = true }
        // Exactly one failure action: a second one would be an unasserted action, reported when
        // the test store is released.
        await store.receive(.today(.shiftsLoaded(.failure(.unavailable)))) {
            $0.today.isLoading = false
            $0.today.errorMessage = "Could not load shifts: unavailable"
        }
        #expect(store.state.today.scheduledShifts == [testShift1])

        calendar.mockError = nil
        calendar.mockShifts = [testShift2]
        await store.send(.today(.loadShifts)) {
            $0.today.isLoading = true
            $0.today.errorMessage = nil
        }
        await store.receive(.today(.shiftsLoaded(.success([testShift2])))) {
            $0.today.isLoading = false
            $0.today.scheduledShifts = [testShift2]
        }
        #expect(calendar.loadShiftsCallCount == 3)
    }

    @Test("Work cancelled mid-flight under a test store ends, what it dispatches on its way out is dropped, and the store keeps working")
    func cancelledWorkUnderTestStore() async {
        let gate = Gate()
        let calendar = MockCalendarService(gate: gate)
        calendar.mockShifts = [testShift1]
        let store = TestStore(
            state: AppState(),
            reducer: appReducer,
            services: ServiceContainer(calendarService: calendar),
            middlewares: [todayMiddleware]
        )

        let load = await store.send(.today(.loadShifts)) { $0.today.isLoading = true }
        #expect(gate.waitingCount == 1)
        await load.cancel()
        #expect(load.isFinished)
        // The gate let the cancelled call through and the middleware dispatched its result,
        // which a cancelled task's dispatch drops: nothing to receive, and the state still loads.
        #expect(store.state.today.isLoading)
        #expect(store.state.today.scheduledShifts.isEmpty)

        gate.open()
        await store.send(.schedule(.selectDay(3))) { $0.schedule.selectedDay = 3 }
        #expect(calendar.loadShiftsCallCount == 1)
    }

    @Test("A throwing effect on a mock store is reported as exactly one issue and one failure; other effects and later dispatches keep working")
    func throwingEffectOnMockStoreIsReportedOnce() async {
        let live = LiveTasks()
        let mockStore = MockStore<Counter, CounterAction>(state: Counter())
        let issues = Lock(0)
        var failing: EffectRegistration?
        let healthy = mockStore.register(Effect<CounterAction> { actions in
            actions.ofCase { action -> Int? in
                if case .countdown(let n) = action, n > 0 { n } else { nil }
            }
            .map { n in CounterAction.countdown(n - 1) }
        })
        await withKnownIssue {
            failing = mockStore.register(Effect<CounterAction> { actions in
                actions
                    .map { action throws -> CounterAction in
                        if action == .listen { throw Boom() }
                        return action
                    }
                    .ofCase { _ -> CounterAction? in nil }
                    .live(in: live)
            })
            await mockStore.dispatch(action: .increment)
            await mockStore.dispatch(action: .listen)
            await failing?.finished()
        } matching: { issue in
            issues.withLock { $0 += 1 }
            return issue.description.contains("failed and was stopped")
        }

        #expect(issues.withLock { $0 } == 1)
        #expect(mockStore.failures.count == 1)
        #expect(mockStore.failures.first?.error is Boom)
        await live.waitUntilZero()
        #expect(live.started == 1)

        await mockStore.dispatch(action: .countdown(2))
        #expect(mockStore.recordedActions == [.increment, .listen, .countdown(2), .countdown(1), .countdown(0)])
        #expect(mockStore.failures.count == 1)
        healthy.cancel()
        await healthy.finished()
    }

    @Test("An effect cancelled mid-reaction on a mock store ends with no failure, and the dispatch waiting for it returns")
    func effectCancelledMidReactionOnMockStore() async {
        let live = LiveTasks()
        let gate = Gate()
        let mockStore = MockStore<Counter, CounterAction>(state: Counter())
        let effect = mockStore.register(Effect<CounterAction> { actions in
            actions
                .filter { $0 == .listen }
                .map { _ throws -> CounterAction in
                    await gate.pass()
                    try Task.checkCancellation()
                    return .increment
                }
                .live(in: live)
        })

        let dispatch = Task { await mockStore.dispatch(action: .listen) }
        await gate.arrival()
        effect.cancel()
        await dispatch.value
        await effect.finished()
        await live.waitUntilZero()

        #expect(mockStore.failures.isEmpty)
        #expect(mockStore.recordedActions == [.listen])
        await mockStore.dispatch(action: .listen)
        #expect(mockStore.recordedActions == [.listen, .listen])
        #expect(live.started == 1)
    }
}
