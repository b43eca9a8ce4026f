import LockstepTesting
import ShiftScheduler
import Synchronization
import Testing

/// A calendar double: returns its shifts, counts its calls, and can hold each call on a gate.
final class MockCalendarService: CalendarService {
    private let shifts = Mutex<[Shift]>([])
    let loadShiftsCalls = CallRecorder<String>()
    let gate: Gate?

    init(shifts: [Shift] = [], gate: Gate? = nil) {
        self.shifts.withLock { $0 = shifts }
        self.gate = gate
    }

    var mockShifts: [Shift] {
        get { shifts.withLock { $0 } }
        set { shifts.withLock { $0 = newValue } }
    }

    var loadShiftsCallCount: Int { loadShiftsCalls.count }

    func loadShifts(on day: String) async throws(CalendarError) -> [Shift] {
        loadShiftsCalls.record(day)
        await gate?.pass()
        return mockShifts.filter { $0.day == day }
    }

    func loadShifts(from firstDay: String, through lastDay: String) async throws(CalendarError) -> [Shift] {
        mockShifts.filter { $0.day >= firstDay && $0.day <= lastDay }
    }

    func add(_ shift: Shift) async throws(CalendarError) -> Shift {
        var shift = shift
        shift.id = Int64(mockShifts.count + 1)
        mockShifts.append(shift)
        return shift
    }

    func switchShift(_ id: Int64, to title: String) async throws(CalendarError) -> Shift {
        guard let index = mockShifts.firstIndex(where: { $0.id == id }) else { throw .unknownShift(id) }
        mockShifts[index].title = title
        return mockShifts[index]
    }

    func deleteShift(_ id: Int64) async throws(CalendarError) {
        guard mockShifts.contains(where: { $0.id == id }) else { throw .unknownShift(id) }
        mockShifts.removeAll { $0.id == id }
    }
}

/// The store, the middleware and the calendar together: each test awaits the dispatch, which
/// returns when the middleware and the actions it dispatched are done, and never sleeps.
@MainActor
@Suite("Middleware integration")
struct MiddlewareIntegrationTests {
    @Test func testMiddlewareLoadsShifts() async {
        let mockCalendar = MockCalendarService(shifts: [morning, evening])
        let store = makeStore(calendar: mockCalendar, today: "2026-11-22", weekEnd: "2026-11-28")

        await store.dispatch(action: .today(.loadShifts))

        #expect(store.state.today.scheduledShifts.count == 2)
        #expect(mockCalendar.loadShiftsCallCount == 1)
    }

    @Test func testLoadingStateDuringMiddleware() async {
        let gate = Gate()
        let mockCalendar = MockCalendarService(shifts: [morning], gate: gate)
        let store = makeStore(calendar: mockCalendar, today: "2026-11-22", weekEnd: "2026-11-22")

        let task = Task { await store.dispatch(action: .today(.loadShifts)) }
        await gate.arrival()
        #expect(store.state.today.isLoading == true)

        gate.open()
        await task.value
        #expect(store.state.today.isLoading == false)
        #expect(store.state.today.scheduledShifts == [morning])
    }

    @Test func testEditHandlesUnknownShift() async {
        let store = makeStore(calendar: MockCalendarService(shifts: [morning]), today: "2026-11-22", weekEnd: "2026-11-22")

        await store.dispatch(.edit(.delete(id: 99)))

        #expect(store.state.edit.lastResult == .failure(.unknownShift(99)))
        #expect(store.state.edit.isSaving == false)
    }

    @Test("Every step of a switch, asserted with a test store")
    func testSwitchReloadsToday() async {
        let calendar = MockCalendarService(shifts: [morning])
        let store = TestStore(
            state: AppState(today: "2026-11-22", weekEnd: "2026-11-22"),
            reducer: appReducer,
            services: ServiceContainer(calendarService: calendar)
        ) {
            todayMiddleware
            calendarMiddleware
        }
        var night = morning
        night.title = "Night"

        await store.send(.edit(.switchShift(id: 1, title: "Night"))) { $0.edit.isSaving = true }
        await store.receive(.edit(.finished(.success("switched \(night.line)")))) {
            $0.edit.isSaving = false
            $0.edit.lastResult = .success("switched \(night.line)")
        }
        await store.receive(.today(.loadShifts)) { $0.today.isLoading = true }
        await store.receive(.today(.shiftsLoaded(.success([night])))) {
            $0.today.isLoading = false
            $0.today.scheduledShifts = [night]
        }
    }
}
