@testable import LockstepFixtures
import Lockstep
import Testing

@Suite("Reducer composition")
struct ReducerCompositionTests {
    @Test("A scoped reducer changes only its part of the state")
    func testScopedReducerChangesOnlyItsState() {
        var state = AppState()
        state.schedule.selectedDay = 4

        let newState = appReducer(state, .today(.loadShifts))

        #expect(newState.today.isLoading == true)
        #expect(newState.schedule.selectedDay == 4)
    }

    @Test("A scoped reducer ignores the actions of other features")
    func testScopedReducerIgnoresOtherActions() {
        let today = scopeReducer(todayReducer, state: \AppState.today, action: \AppAction.today)

        let newState = today(AppState(), .schedule(.selectDay(2)))

        #expect(newState == AppState())
    }

    @Test("Combined reducers run in order, each on the state the previous one returned")
    func testCombinedReducersRunInOrder() {
        let appendA: Reducer<[String], Int> = { state, action in state + ["a\(action)"] }
        let appendB: Reducer<[String], Int> = { state, action in state + ["b\(action)"] }

        let combined = combineReducers(appendA, appendB)

        #expect(combined([], 1) == ["a1", "b1"])
        #expect(combineReducers([appendB, appendA])(["x"], 2) == ["x", "b2", "a2"])
    }

    @Test("Combining no reducers leaves the state as it is")
    func testCombiningNoReducersIsIdentity() {
        let none = combineReducers([Reducer<Int, Int>]())

        #expect(none(7, 1) == 7)
    }
}
