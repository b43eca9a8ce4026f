// The README's "A store, a middleware and a test", as the README quotes it.
import Testing
import Lockstep

struct TodayState: Equatable, Sendable {
    var isLoading = false
    var scheduledShifts: [Shift] = []
}

enum TodayAction: Equatable, Sendable {
    case loadShifts
    case shiftsLoaded([Shift])
}

// The reducer: a pure function, run synchronously on the main actor.
func todayReducer(state: TodayState, action: TodayAction) -> TodayState {
    var state = state
    switch action {
    case .loadShifts:
        state.isLoading = true
    case .shiftsLoaded(let shifts):
        state.isLoading = false
        state.scheduledShifts = shifts
    }
    return state
}

// The middleware: side effects, reported back as actions.
func todayMiddleware(
    state: TodayState,
    action: TodayAction,
    services: ServiceContainer,
    dispatch: Dispatcher<TodayAction>
) async {
    guard action == .loadShifts else { return }
    let shifts = await services.calendarService.loadShifts()
    await dispatch(.shiftsLoaded(shifts))
}

// The test: dispatch returns when the middleware and the action it dispatched are done.
@MainActor
@Test func testMiddlewareLoadsShifts() async {
    let calendar = MockCalendarService(shifts: [morning, evening])
    let store = Store(
        state: TodayState(),
        reducer: todayReducer,
        services: ServiceContainer(calendarService: calendar),
        middlewares: [todayMiddleware]
    )

    await store.dispatch(.loadShifts)

    #expect(store.state.scheduledShifts.count == 2)
    #expect(store.state.isLoading == false)
}
