// The snippets of LockstepTesting's landing page and of its article "Testing"
// (Sources/LockstepTesting/Documentation.docc), which quote this file, run as tests. The Today
// feature is Tests/Fixtures/TodayFeature.swift.
@testable import LockstepFixtures
import LockstepTesting
import Testing

@MainActor
@Test func loadShifts() async {
    let store = TestStore(
        state: AppState(),
        reducer: appReducer,
        services: ServiceContainer(calendarService: MockCalendarService(shifts: [morning])),
        middlewares: [todayMiddleware]
    )

    await store.send(.today(.loadShifts)) {
        $0.today.isLoading = true
    }
    await store.receive(.today(.shiftsLoaded(.success([morning])))) {
        $0.today.isLoading = false
        $0.today.scheduledShifts = [morning]
    }
}

private typealias ContentView = ScreenshotWatcher.ContentView

@MainActor
@Suite("The testing article's snippets")
struct TestingArticleSnippetTests {
    @MainActor
    @Test func testMiddlewareLoadsShifts() async {
        let calendar = MockCalendarService()
        calendar.mockShifts = [testShift1, testShift2]
        let store = Store(state: AppState(), reducer: appReducer,
                          services: ServiceContainer(calendarService: calendar),
                          middlewares: [todayMiddleware])

        await store.dispatch(.today(.loadShifts))

        #expect(store.state.today.scheduledShifts.count == 2)
        #expect(calendar.loadShiftsCallCount == 1)
    }

    @Test("The loading state, seen while the service call is parked on a gate")
    func loadingStateOnAGate() async {
        let gate = Gate()
        let calendar = MockCalendarService(gate: gate)   // loadShifts() awaits gate.pass()
        let store = TestStore(state: AppState(), reducer: appReducer,
                              services: ServiceContainer(calendarService: calendar),
                              middlewares: [todayMiddleware])

        let task = await store.send(.today(.loadShifts)) { $0.today.isLoading = true }
        // send returned with the service call parked on the gate: the loading state is visible.
        #expect(store.state.today.isLoading)

        gate.open()
        await store.receive(.today(.shiftsLoaded(.success([])))) { $0.today.isLoading = false }
        await task.finish()
    }

    @Test("A debounced search answers once the manual clock has moved 300 ms")
    func debouncedSearchOnAManualClock() async {
        let clock = ManualClock()
        let store = TestStore(
            state: SearchState(), reducer: searchReducer,
            services: SearchServices(clock: clock),   // ManualClockTests' search
            middlewares: [searchMiddleware])

        await store.send(.queryChanged("lock")) { $0.query = "lock" }
        await clock.advance(by: .milliseconds(300))
        await store.receive(.resultsLoaded(["lockstep", "locksmith"])) { $0.results = ["lockstep", "locksmith"] }
    }

    @Test("An EventSource's send returns once the screenshot has been handled")
    func eventSourceSendReturnsOnceHandled() async {
        let screenshots = EventSource<Void>()
        let screenshotActionCalls = CallRecorder<Void>()
        let actions = ContentView.Actions(onDisplay: ContentView.Actions.defaultOnDisplay(
            screenshots: screenshots, screenshotAction: { screenshotActionCalls.record() }))
        let display = Task { await actions.onDisplay() }   // for await _ in screenshots { ... }

        await screenshots.send(())

        #expect(screenshotActionCalls.count == 1)
        display.cancel()
        await display.value
    }
}
