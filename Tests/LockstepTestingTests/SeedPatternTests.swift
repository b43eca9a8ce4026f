@testable import LockstepFixtures
import LockstepTesting
import Testing

/// Seed 000's fourth pattern, written with the toolkit's Gate instead of an artificial delay and
/// a `Task.sleep`: on a plain store, and on a test store.
@MainActor
@Suite("Seed 000, pattern 4")
struct SeedPatternTests {
    @Test("Loading state visible during async middleware")
    func testLoadingStateDuringMiddleware() async {
        let gate = Gate()
        let mockCalendar = MockCalendarService(gate: gate)
        mockCalendar.mockShifts = [testShift1, testShift2]

        let store = Store(
            state: AppState(),
            reducer: appReducer,
            services: ServiceContainer(calendarService: mockCalendar),
            middlewares: [todayMiddleware]
        )

        // When - Start dispatch in background
        let task = Task {
            await store.dispatch(action: .today(.loadShifts))
        }

        // The service call is in flight: no guess of how long to wait.
        await gate.arrival()

        // Then - Loading state visible
        #expect(store.state.today.isLoading == true)

        // Let the call finish, and wait for completion
        gate.open()
        await task.value

        // Then - Loading cleared
        #expect(store.state.today.isLoading == false)
        #expect(store.state.today.scheduledShifts.count == 2)
    }

    @Test("Loading state visible during async middleware, on a test store")
    func testLoadingStateDuringMiddlewareOnATestStore() async {
        let gate = Gate()
        let mockCalendar = MockCalendarService(gate: gate)
        mockCalendar.mockShifts = [testShift1]
        let store = TestStore(
            state: AppState(),
            reducer: appReducer,
            services: ServiceContainer(calendarService: mockCalendar),
            middlewares: [todayMiddleware]
        )

        let load = await store.send(.today(.loadShifts)) {
            $0.today.isLoading = true
        }

        gate.open()
        await store.receive(.today(.shiftsLoaded(.success([testShift1])))) {
            $0.today.isLoading = false
            $0.today.scheduledShifts = [testShift1]
        }
        await load.finish()
    }
}
