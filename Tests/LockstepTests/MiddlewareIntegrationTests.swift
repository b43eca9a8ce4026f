@testable import LockstepFixtures
import Lockstep
import LockstepTesting
import Testing

/// Seed 000, patterns 2 and 4: the full stack, awaiting `dispatch` and never sleeping.
@MainActor
@Suite("Middleware integration")
struct MiddlewareIntegrationTests {
    @Test("Middleware loads shifts and updates state")
    func testMiddlewareLoadsShifts() async {
        let mockCalendar = MockCalendarService()
        mockCalendar.mockShifts = [testShift1, testShift2]

        let store = Store(
            state: AppState(),
            reducer: appReducer,
            services: ServiceContainer(calendarService: mockCalendar),
            middlewares: [todayMiddleware]
        )

        await store.dispatch(action: .today(.loadShifts))

        #expect(store.state.today.scheduledShifts.count == 2)
        #expect(store.state.today.isLoading == false)
        #expect(mockCalendar.loadShiftsCallCount == 1)
    }

    @Test("Middleware reports a load error through the reducer")
    func testMiddlewareHandlesLoadError() async {
        let mockCalendar = MockCalendarService()
        mockCalendar.mockError = .unavailable

        let store = Store(
            state: AppState(),
            reducer: appReducer,
            services: ServiceContainer(calendarService: mockCalendar),
            middlewares: [todayMiddleware]
        )

        await store.dispatch(.today(.loadShifts))

        #expect(store.state.today.isLoading == false)
        #expect(store.state.today.errorMessage == "Could not load shifts: unavailable")
        #expect(mockCalendar.loadShiftsCallCount == 1)
    }

    @Test("Middleware ignores actions of other features")
    func testMiddlewareIgnoresOtherActions() async {
        let mockCalendar = MockCalendarService()
        let store = Store(
            state: AppState(),
            reducer: appReducer,
            services: ServiceContainer(calendarService: mockCalendar),
            middlewares: [todayMiddleware]
        )

        await store.dispatch(.schedule(.selectDay(3)))

        #expect(store.state.schedule.selectedDay == 3)
        #expect(mockCalendar.loadShiftsCallCount == 0)
    }

    @Test("Loading state visible during async middleware")
    func testLoadingStateDuringMiddleware() async {
        // The gate replaces the seed's artificial delay and `Task.sleep`: the service call
        // stays suspended until the test opens the gate.
        let gate = Gate()
        let mockCalendar = MockCalendarService(gate: gate)
        mockCalendar.mockShifts = [testShift1]

        let store = Store(
            state: AppState(),
            reducer: appReducer,
            services: ServiceContainer(calendarService: mockCalendar),
            middlewares: [todayMiddleware]
        )

        let task = Task {
            await store.dispatch(action: .today(.loadShifts))
        }

        await gate.arrival()
        #expect(store.state.today.isLoading == true)
        #expect(store.state.today.scheduledShifts.isEmpty)

        gate.open()
        await task.value

        #expect(store.state.today.isLoading == false)
        #expect(store.state.today.scheduledShifts == [testShift1])
    }
}
