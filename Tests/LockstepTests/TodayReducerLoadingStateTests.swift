@testable import LockstepFixtures
import Lockstep
import Testing

/// Seed 000, patterns 1 and 3: the reducer tested in isolation, with no store.
@Suite("Today reducer loading state")
struct TodayReducerLoadingStateTests {
    @Test("loadShifts sets isLoading to true")
    func testLoadShiftsSetsLoading() {
        var state = TodayState()
        state.isLoading = false

        let newState = todayReducer(state: state, action: .loadShifts)

        #expect(newState.isLoading == true)
    }

    @Test("shiftsLoaded success clears loading")
    func testShiftsLoadedClearsLoading() {
        var state = TodayState()
        state.isLoading = true

        let newState = todayReducer(state: state, action: .shiftsLoaded(.success([])))

        #expect(newState.isLoading == false)
    }

    @Test("loadShifts preserves the shifts already shown")
    func testLoadShiftsPreservesOtherState() {
        var state = TodayState()
        state.scheduledShifts = [testShift1]

        let newState = todayReducer(state: state, action: .loadShifts)

        #expect(newState.scheduledShifts == [testShift1])
    }

    @Test("shiftsLoaded failure clears loading and sets the error")
    func testShiftsLoadedFailureSetsError() {
        var state = TodayState()
        state.isLoading = true

        let newState = todayReducer(state: state, action: .shiftsLoaded(.failure(.unavailable)))

        #expect(newState.isLoading == false)
        #expect(newState.errorMessage == "Could not load shifts: unavailable")
    }

    @Test("Complete loading cycle: start -> success")
    func testCompleteLoadingCycle() {
        var state = TodayState()
        state.isLoading = false
        state.scheduledShifts = []

        state = todayReducer(state: state, action: .loadShifts)
        #expect(state.isLoading == true)

        let testShifts = [testShift1, testShift2]
        state = todayReducer(state: state, action: .shiftsLoaded(.success(testShifts)))

        #expect(state.isLoading == false)
        #expect(state.scheduledShifts.count == 2)
    }
}
