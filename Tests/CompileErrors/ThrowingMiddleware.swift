// expected-error: invalid conversion from throwing function
// A middleware cannot throw: an error is a result the app handles, so the middleware turns it
// into an action (seed 000's `.shiftsLoaded(.failure(...))`).
import Lockstep

enum Action: Sendable { case load, loaded(Int) }
struct Offline: Error {}

let middleware: Middleware<Int, Action, Void> = { _, action, _, dispatch in
    guard case .load = action else { return }
    throw Offline()
}
