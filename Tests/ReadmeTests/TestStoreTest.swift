// The README's "Every step checked: LockstepTesting", as the README quotes it.
import Testing
import LockstepTesting

@MainActor
@Test func testLoadingStateDuringMiddleware() async {
    let gate = Gate()
    let store = TestStore(
        state: TodayState(),
        reducer: todayReducer,
        services: ServiceContainer(calendarService: MockCalendarService(shifts: [morning], gate: gate)),
        middlewares: [todayMiddleware]
    )

    let load = await store.send(.loadShifts) { $0.isLoading = true }   // returns parked on the gate
    gate.open()
    await store.receive(.shiftsLoaded([morning])) {
        $0.isLoading = false
        $0.scheduledShifts = [morning]
    }
    await load.finish()
}
