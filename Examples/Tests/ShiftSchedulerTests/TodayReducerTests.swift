import ShiftScheduler
import Testing

let morning = Shift(id: 1, title: "Morning", day: "2026-11-22", startHour: 6, endHour: 14)
let evening = Shift(id: 2, title: "Evening", day: "2026-11-22", startHour: 14, endHour: 22)

/// The Today feature's reducer, tested as a pure function: each action's state, no store needed.
@Suite("Today reducer")
struct TodayReducerTests {
    @Test func testLoadShiftsSetsLoading() {
        var state = TodayState(day: "2026-11-22")
        state.isLoading = false

        let newState = todayReducer(state: state, action: .loadShifts)

        #expect(newState.isLoading == true)
    }

    @Test func testShiftsLoadedClearsLoading() {
        var state = TodayState(day: "2026-11-22")
        state.isLoading = true

        let newState = todayReducer(state: state, action: .shiftsLoaded(.success([])))

        #expect(newState.isLoading == false)
    }

    @Test func testLoadShiftsPreservesOtherState() {
        var state = TodayState(day: "2026-11-22")
        state.scheduledShifts = [morning]

        let newState = todayReducer(state: state, action: .loadShifts)

        #expect(newState.scheduledShifts == [morning])
        #expect(newState.day == "2026-11-22")
    }

    @Test func testCompleteLoadingCycle() {
        var state = TodayState(day: "2026-11-22")
        state = todayReducer(state: state, action: .loadShifts)
        #expect(state.isLoading == true)

        state = todayReducer(state: state, action: .shiftsLoaded(.success([morning, evening])))
        #expect(state.isLoading == false)
        #expect(state.scheduledShifts.count == 2)
    }

    @Test func testShiftsLoadedFailureSetsError() {
        var loading = TodayState(day: "x")
        loading.isLoading = true
        let state = todayReducer(state: loading, action: .shiftsLoaded(.failure(.storage("disk full"))))
        #expect(state.isLoading == false)
        #expect(state.errorMessage == "the shift database cannot be used: disk full")
    }

    @Test("The screen shows loading, then the shifts")
    func testRendererLines() {
        var state = TodayState(day: "2026-11-22")
        state.isLoading = true
        #expect(TodayRenderer.lines(for: state) == ["Today, 2026-11-22", "Loading…"])

        state.isLoading = false
        state.scheduledShifts = [morning]
        #expect(TodayRenderer.lines(for: state) == ["Today, 2026-11-22", "#1  Morning  2026-11-22  06:00–14:00"])
    }
}
