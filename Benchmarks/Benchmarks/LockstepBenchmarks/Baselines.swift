import Benchmark
import Observation

// Baselines: the cost of the pieces a dispatch is made of, measured in the same run as the store.

/// A minimal observable model: what an app without a store would write its state into.
@Observable
final class CounterModel {
    var state = Counter()
}

/// A store written the naive way, straight from the three phases of the dispatch contract:
/// the reducer on the main actor, a yield of the main actor, then the middlewares in a task
/// group. It is what `Store` is measured against for the cost of its own bookkeeping.
@MainActor
@Observable
final class NaiveStore {
    private(set) var state: Counter

    @ObservationIgnored
    private let reducer: (Counter, CounterAction) -> Counter

    @ObservationIgnored
    private let middleware: @Sendable (Counter, CounterAction) async -> Void

    init(
        state: Counter,
        reducer: @escaping (Counter, CounterAction) -> Counter,
        middleware: @escaping @Sendable (Counter, CounterAction) async -> Void
    ) {
        self.state = state
        self.reducer = reducer
        self.middleware = middleware
    }

    func dispatch(_ action: CounterAction) async {
        // Phase 1: the reducer.
        let newState = reducer(state, action)
        state = newState
        // Phase 2: let observers render the new state.
        await Task.yield()
        // Phase 3: every middleware (here one) concurrently, awaited.
        let middleware = self.middleware
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await middleware(newState, action)
            }
        }
    }
}

/// A middleware that ignores every action. Built behind a call the optimizer does not look
/// through, so that calling it costs what calling an unknown async function costs.
@inline(never)
func makeIgnoringMiddleware() -> @Sendable (Counter, CounterAction) async -> Void {
    { _, _ in }
}

func registerBaselineBenchmarks() {
    Benchmark("Baseline: reducer in a loop") { benchmark in
        var state = Counter()
        for _ in benchmark.scaledIterations {
            state = counterReducer(state, .increment)
            blackHole(state)
        }
    }

    Benchmark("Baseline: reducer + @Observable write") { benchmark in
        let model = CounterModel()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            model.state = counterReducer(model.state, .increment)
        }
        benchmark.stopMeasurement()
        blackHole(model.state)
    }

    // The floor of a store observed through Observation: the write above, with an observer
    // registered again before every write, as a view does after every render.
    Benchmark("Baseline: @Observable write with one observer") { benchmark in
        let model = CounterModel()
        let changes = SendableCounter()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            withObservationTracking {
                _ = model.state
            } onChange: {
                changes.increment()
            }
            model.state = counterReducer(model.state, .increment)
        }
        benchmark.stopMeasurement()
        expect(changes.value, equals: benchmark.scaledIterations.count, in: benchmark, "number of changes")
    }

    // The async benchmarks below that name the main actor run on it: package-benchmark starts
    // the closure in a task on the global executor and the `@MainActor` closure hops to the main
    // actor once per iteration, that is once per 1,000 operations.

    Benchmark("Baseline: Task.yield on the main actor") { @MainActor benchmark async in
        for _ in benchmark.scaledIterations {
            await Task.yield()
        }
    }

    Benchmark("Baseline: Task.yield off the main actor") { benchmark async in
        await yieldOffMainActor(benchmark.scaledIterations)
    }

    // The floor of a dispatch with one middleware: a yield of the main actor, then a call of a
    // nonisolated async middleware, which hops to the global executor and back.
    Benchmark("Baseline: Task.yield + one middleware call on the main actor") { @MainActor benchmark async in
        let middleware = makeIgnoringMiddleware()
        let state = Counter()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            await Task.yield()
            await middleware(state, .increment)
        }
    }

    Benchmark("Baseline: withTaskGroup with one child") { @MainActor benchmark async in
        for _ in benchmark.scaledIterations {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {}
            }
        }
    }

    Benchmark("Baseline: naive @MainActor store, one middleware") { @MainActor benchmark async in
        let store = NaiveStore(state: Counter(), reducer: counterReducer, middleware: makeIgnoringMiddleware())
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            await store.dispatch(.increment)
        }
        benchmark.stopMeasurement()
        expect(store.state.value, equals: benchmark.scaledIterations.count, in: benchmark)
    }
}

/// Yields in a loop on the global executor, whatever the isolation of the caller.
@concurrent
func yieldOffMainActor(_ iterations: Range<Int>) async {
    for _ in iterations {
        await Task.yield()
    }
}
