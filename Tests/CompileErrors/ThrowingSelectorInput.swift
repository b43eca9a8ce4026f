// expected-error: invalid conversion from throwing function
// A selector input cannot throw: selectors run on every state change and have no error channel.
// Keep the failure in the state (an optional, a Result) and select that instead.
import Lockstep

struct State: Sendable { var raw = "" }
struct ParseError: Error {}

func parse(_ raw: String) throws -> Int {
    guard let value = Int(raw) else { throw ParseError() }
    return value
}

let number = createSelector({ (state: State) in try parse(state.raw) }) { $0 }
