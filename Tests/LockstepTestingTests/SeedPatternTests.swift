@testable import LockstepFixtures
import LockstepTesting
import Testing

/// Seed 000's fourth pattern on a test store, with the toolkit's Gate instead of an artificial
/// delay (LockstepTests' MiddlewareIntegrationTests has the plain-store form).
@MainActor
@Suite("Seed 000, pattern 4")
struct SeedPatternTests {
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
