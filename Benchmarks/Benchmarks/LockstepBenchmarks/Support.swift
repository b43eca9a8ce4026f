import Benchmark
import Synchronization

/// The state of every benchmark's store: a counter.
struct Counter: Sendable, Equatable, Codable {
    var value = 0
}

/// The actions of every benchmark's store.
enum CounterAction: Sendable, Codable {
    /// Adds one to the counter.
    case increment
    /// Adds one to the counter; a middleware that dispatches a follow-up sends this one.
    case followUp
    /// Adds one to the counter; the countdown middleware dispatches `.countdown(n - 1)` after it
    /// until `n` is 0.
    case countdown(Int)
}

/// The reducer of every benchmark. Not inlined, so that the baselines pay for a call as a store
/// does (a store calls its reducer through a closure).
@inline(never)
func counterReducer(_ state: Counter, _ action: CounterAction) -> Counter {
    var state = state
    switch action {
    case .increment, .followUp, .countdown:
        state.value &+= 1
    }
    return state
}

/// A counter that any thread or task can add to, for `onChange` callbacks of Observation, which
/// are `@Sendable` and not isolated to the main actor.
final class SendableCounter: Sendable {
    private let storage = Atomic<Int>(0)

    func increment() {
        storage.add(1, ordering: .relaxed)
    }

    var value: Int {
        storage.load(ordering: .relaxed)
    }
}

/// Fails `benchmark` when a store's final count is not the expected one, so that a benchmark
/// that stopped measuring what it claims to (a dispatch lost, an observation not fired) says so
/// instead of reporting a number.
///
/// package-benchmark reports a benchmark that called `error(_:)` and goes on with the others,
/// but still exits with status 0, so a smoke run stops the process instead: CI then fails.
func expect(_ count: Int, equals expected: Int, in benchmark: Benchmark, _ what: String = "count") {
    guard count != expected else { return }
    let message = "\(benchmark.name): expected a \(what) of \(expected), got \(count)"
    if Suite.isSmokeRun {
        fatalError(message)
    }
    benchmark.error(message)
}
