// The tests of the article "Getting started" (Sources/Lockstep/Documentation.docc/GettingStarted.md),
// quoted by it (and the landing page's example, Lockstep.md); the feature they test is Tests/Fixtures/TodayFeature.swift, which the article
// quotes too.
@testable import LockstepFixtures
import Lockstep
import LockstepTesting
import Testing

/// Stands for the app's real calendar service, which the article's store is created with.
struct LiveCalendarService: CalendarService {
    func loadShifts() async throws(CalendarError) -> [Shift] {
        [testShift1]
    }
}

@MainActor
@Suite("The getting-started article")
struct GettingStartedArticleTests {
    @Test("The store of the article loads the live calendar's shifts")
    func createTheStoreAndDispatch() async {
        let store = Store(
            state: AppState(),
            reducer: appReducer,
            services: ServiceContainer(calendarService: LiveCalendarService()),
            middlewares: [todayMiddleware]
        )

        await store.dispatch(.today(.loadShifts))

        #expect(store.state.today.scheduledShifts == [testShift1])
    }

    @Test("The landing page's example: the dispatch returns with the shifts loaded")
    func landingPageExample() async {
        let calendar = MockCalendarService()
        calendar.mockShifts = [testShift1, testShift2]
        let store = Store(
            state: AppState(),
            reducer: appReducer,
            services: ServiceContainer(calendarService: calendar),
            middlewares: [todayMiddleware]
        )

        await store.dispatch(.today(.loadShifts))
        #expect(store.state.today.scheduledShifts.count == 2)
    }

    @Test func testLoadShiftsSetsLoading() {
        let newState = todayReducer(state: TodayState(), action: .loadShifts)
        #expect(newState.isLoading == true)
    }

    @MainActor
    @Test func testMiddlewareLoadsShifts() async {
        let mockCalendar = MockCalendarService()
        mockCalendar.mockShifts = [testShift1, testShift2]
        let store = Store(
            state: AppState(),
            reducer: appReducer,
            services: ServiceContainer(calendarService: mockCalendar),
            middlewares: [todayMiddleware]
        )

        await store.dispatch(.today(.loadShifts))

        #expect(store.state.today.scheduledShifts.count == 2)
        #expect(mockCalendar.loadShiftsCallCount == 1)
    }

    @MainActor
    @Test func testLoadingStateDuringMiddleware() async {
        let gate = Gate()
        let mockCalendar = MockCalendarService(gate: gate)  // its loadShifts() awaits gate.pass()
        let store = Store(
            state: AppState(),
            reducer: appReducer,
            services: ServiceContainer(calendarService: mockCalendar),
            middlewares: [todayMiddleware]
        )

        let task = Task { await store.dispatch(.today(.loadShifts)) }

        await gate.arrival()                            // the service call is in flight
        #expect(store.state.today.isLoading == true)

        gate.open()
        await task.value                                // everything it caused is finished
        #expect(store.state.today.isLoading == false)
    }
}
