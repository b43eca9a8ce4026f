import Lockstep
import LockstepTesting
import ShiftScheduler
import Testing

/// The Today feature on its own: its middleware sees only its state and actions, so it is
/// tested with a store of the feature, and runs in the app through a child store.
@MainActor
@Suite("Today feature on child stores")
struct TodayChildStoreTests {
    @Test("The feature's middleware, tested on a store of the Today feature alone")
    func featureAlone() async {
        let store = TestStore(
            state: TodayState(day: "2026-11-22"),
            reducer: todayReducer,
            services: ServiceContainer(calendarService: MockCalendarService(shifts: [morning, evening])),
            middlewares: [todayFeatureMiddleware]
        )

        await store.send(.loadShifts) { $0.isLoading = true }
        await store.receive(.shiftsLoaded(.success([morning, evening]))) {
            $0.isLoading = false
            $0.scheduledShifts = [morning, evening]
        }
    }

    @Test("Through the Today child store of the app's store; an edit elsewhere in the app reloads it")
    func childStoreOfTheApp() async {
        let calendar = MockCalendarService(shifts: [morning, evening])
        let store = makeStore(calendar: calendar, today: "2026-11-22", weekEnd: "2026-11-22")
        let today = store.scope(state: \.today, action: AppAction.today)

        await today.dispatch(.loadShifts)
        #expect(today.scheduledShifts == [morning, evening])
        #expect(today.day == "2026-11-22")

        await store.dispatch(.edit(.delete(id: 1)))
        #expect(today.scheduledShifts == [evening])
        #expect(calendar.loadShiftsCalls.arguments == ["2026-11-22", "2026-11-22"])
    }

    @Test("A failed load reaches the feature's state as its error")
    func failedLoad() async {
        let store = makeStore(calendar: FailingCalendar(), today: "2026-11-22", weekEnd: "2026-11-22")
        let today = store.scope(state: \.today, action: AppAction.today)

        await today.dispatch(.loadShifts)

        #expect(today.errorMessage == "the shift database cannot be used: disk full")
        #expect(!today.isLoading)
    }
}

/// A calendar whose every call fails.
private struct FailingCalendar: CalendarService {
    func loadShifts(on day: String) async throws(CalendarError) -> [Shift] { throw .storage("disk full") }
    func loadShifts(from firstDay: String, through lastDay: String) async throws(CalendarError) -> [Shift] { throw .storage("disk full") }
    func add(_ shift: Shift) async throws(CalendarError) -> Shift { throw .storage("disk full") }
    func switchShift(_ id: Int64, to title: String) async throws(CalendarError) -> Shift { throw .storage("disk full") }
    func deleteShift(_ id: Int64) async throws(CalendarError) { throw .storage("disk full") }
}
