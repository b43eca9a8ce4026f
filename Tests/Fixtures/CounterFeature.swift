import Lockstep

// A counter store, the smallest feature that exercises the dispatch contract; shared by the
// test targets.

struct Counter: Equatable, Sendable {
    var value = 0
    var log: [Int] = []
}

enum CounterAction: Equatable, Sendable {
    case increment
    case countdown(Int)
    case listen
}

func counterReducer(state: Counter, action: CounterAction) -> Counter {
    var state = state
    switch action {
    case .increment:
        state.value += 1
    case .countdown(let n):
        state.log.append(n)
    case .listen:
        break
    }
    return state
}

/// Dispatches `.countdown(n - 1)` for every `.countdown(n)` until zero.
let countdownMiddleware: @Sendable (Counter, CounterAction, Dispatcher<CounterAction>) async -> Void = {
    _, action, dispatch in
    guard case .countdown(let n) = action, n > 0 else { return }
    await dispatch(.countdown(n - 1))
}
