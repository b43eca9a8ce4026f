// expected-error: converting non-Sendable function value to '@Sendable (State) -> Int'
// A selector may be called from any thread, so its inputs are `@Sendable`. A closure written in
// the call to `createSelector` is inferred `@Sendable`; one kept in a `let` is not, and this one
// could not be: it changes a variable of its function, which two threads calling the selector
// at once would change together. Mark a kept closure `@Sendable`, and keep no mutable state in it.
import Lockstep

struct State: Sendable { var value = 0 }

func makeCountingSelector() -> Selector<State, Int> {
    var reads = 0
    let getValue = { (state: State) -> Int in
        reads += 1
        return state.value
    }
    return createSelector(getValue, transformation: { $0 * 2 })
}
