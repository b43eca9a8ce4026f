// Seed 000's Today feature, shared by the test targets. Lockstep's "Getting started" article
// quotes it (SnippetTests checks that it still does): change the two together.
import Lockstep
import LockstepTesting

// A small version of seed 000's ShiftScheduler: a Today feature with a reducer, a middleware
// and a calendar service, composed into an app store.

struct Shift: Equatable, Sendable, Identifiable {
    let id: Int
    let title: String
}

let testShift1 = Shift(id: 1, title: "Morning")
let testShift2 = Shift(id: 2, title: "Evening")
let morning = testShift1
let evening = testShift2

enum CalendarError: Error, Equatable, Sendable {
    case unavailable
}

struct TodayState: Equatable, Sendable {
    var isLoading = false
    var scheduledShifts: [Shift] = []
    var errorMessage: String?
}

enum TodayAction: Equatable, Sendable {
    case loadShifts
    case shiftsLoaded(Result<[Shift], CalendarError>)
}

func todayReducer(state: TodayState, action: TodayAction) -> TodayState {
    var state = state
    switch action {
    case .loadShifts:
        state.isLoading = true
        state.errorMessage = nil
    case .shiftsLoaded(.success(let shifts)):
        state.isLoading = false
        state.scheduledShifts = shifts
    case .shiftsLoaded(.failure(let error)):
        state.isLoading = false
        state.errorMessage = "Could not load shifts: \(error)"
    }
    return state
}

struct ScheduleState: Equatable, Sendable {
    var selectedDay = 0
}

enum ScheduleAction: Equatable, Sendable {
    case selectDay(Int)
}

func scheduleReducer(state: ScheduleState, action: ScheduleAction) -> ScheduleState {
    switch action {
    case .selectDay(let day):
        ScheduleState(selectedDay: day)
    }
}

struct AppState: Equatable, Sendable {
    var today = TodayState()
    var schedule = ScheduleState()
}

enum AppAction: Equatable, Sendable {
    case today(TodayAction)
    case schedule(ScheduleAction)

    var today: TodayAction? {
        if case .today(let action) = self { action } else { nil }
    }
}

let appReducer = combineReducers(
    scopeReducer(todayReducer, state: \AppState.today, action: \AppAction.today),
    scopeReducer(scheduleReducer, state: \AppState.schedule) { action in
        if case .schedule(let action) = action { action } else { nil }
    }
)

protocol CalendarService: Sendable {
    func loadShifts() async throws(CalendarError) -> [Shift]
}

struct ServiceContainer: Sendable {
    let calendarService: any CalendarService
}

/// A calendar service double: returns `mockShifts` (or throws `mockError`), counts its calls,
/// and, when given a gate, holds each call suspended until the test opens the gate.
final class MockCalendarService: CalendarService {
    private struct State {
        var mockShifts: [Shift] = []
        var mockError: CalendarError?
        var loadShiftsCallCount = 0
    }

    private let state = Lock(State())
    let gate: Gate?

    init(gate: Gate? = nil) {
        self.gate = gate
    }

    /// A calendar that answers `shifts`.
    convenience init(shifts: [Shift], gate: Gate? = nil) {
        self.init(gate: gate)
        mockShifts = shifts
    }

    var mockShifts: [Shift] {
        get { state.withLock { $0.mockShifts } }
        set { state.withLock { $0.mockShifts = newValue } }
    }

    var mockError: CalendarError? {
        get { state.withLock { $0.mockError } }
        set { state.withLock { $0.mockError = newValue } }
    }

    var loadShiftsCallCount: Int {
        state.withLock { $0.loadShiftsCallCount }
    }

    func loadShifts() async throws(CalendarError) -> [Shift] {
        let (shifts, error) = state.withLock { state in
            state.loadShiftsCallCount += 1
            return (state.mockShifts, state.mockError)
        }
        await gate?.pass()
        if let error { throw error }
        return shifts
    }
}

func todayMiddleware(
    state: AppState,
    action: AppAction,
    services: ServiceContainer,
    dispatch: Dispatcher<AppAction>
) async {
    guard case .today(.loadShifts) = action else { return }
    do {
        let shifts = try await services.calendarService.loadShifts()
        await dispatch(.today(.shiftsLoaded(.success(shifts))))
    } catch {
        await dispatch(.today(.shiftsLoaded(.failure(error))))
    }
}
