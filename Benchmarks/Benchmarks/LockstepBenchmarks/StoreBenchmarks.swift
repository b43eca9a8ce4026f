import Benchmark
import Lockstep
import Observation

// Lockstep's `Store.dispatch`, one dispatch per operation unless the name says otherwise.

typealias CounterStore = Store<Counter, CounterAction>

typealias CounterMiddleware = @Sendable (
    _ state: Counter,
    _ action: CounterAction,
    _ dispatch: Dispatcher<CounterAction>
) async -> Void

/// A middleware that ignores every action, built behind a call the optimizer does not look
/// through.
@inline(never)
func makeIgnoringStoreMiddleware() -> CounterMiddleware {
    { _, _, _ in }
}

/// A middleware that answers `.increment` with one `.followUp`.
@inline(never)
func makeFollowUpMiddleware() -> CounterMiddleware {
    { _, action, dispatch in
        guard case .increment = action else { return }
        await dispatch(.followUp)
    }
}

/// A middleware that answers `.countdown(n)` with `.countdown(n - 1)` until `n` is 0.
@inline(never)
func makeCountdownMiddleware() -> CounterMiddleware {
    { _, action, dispatch in
        guard case .countdown(let remaining) = action, remaining > 0 else { return }
        await dispatch(.countdown(remaining - 1))
    }
}

/// The depth of the nested-dispatch chain: the top-level `.countdown(10)` causes ten nested
/// dispatches, eleven reductions in all.
let countdownStart = 10

func registerStoreBenchmarks() {
    // Each benchmark runs on the main actor, where `Store` lives; the store is made before the
    // measurement starts.

    registerDispatchBenchmark("Lockstep: dispatch, no middleware", middlewares: [])

    registerDispatchBenchmark(
        "Lockstep: dispatch, one ignoring middleware",
        middlewares: [makeIgnoringStoreMiddleware()]
    )

    registerDispatchBenchmark(
        "Lockstep: dispatch, ten ignoring middlewares",
        middlewares: Array(repeating: makeIgnoringStoreMiddleware(), count: 10)
    )

    registerDispatchBenchmark(
        "Lockstep: dispatch, middleware dispatching one follow-up",
        middlewares: [makeFollowUpMiddleware()],
        reductionsPerDispatch: 2
    )

    Benchmark("Lockstep: dispatch with one Observation observer") { @MainActor benchmark async in
        let store = CounterStore(state: Counter(), reducer: counterReducer)
        let changes = SendableCounter()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            // An observation fires once, so it is registered again before every dispatch, as
            // SwiftUI does after every render.
            withObservationTracking {
                _ = store.state
            } onChange: {
                changes.increment()
            }
            await store.dispatch(.increment)
        }
        benchmark.stopMeasurement()
        expect(store.state.value, equals: benchmark.scaledIterations.count, in: benchmark)
        expect(changes.value, equals: benchmark.scaledIterations.count, in: benchmark, "number of changes")
    }

    Benchmark("Lockstep: chain of 10 nested dispatches") { @MainActor benchmark async in
        let store = CounterStore(
            state: Counter(),
            reducer: counterReducer,
            middlewares: [makeCountdownMiddleware()]
        )
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            await store.dispatch(.countdown(countdownStart))
        }
        benchmark.stopMeasurement()
        expect(store.state.value, equals: benchmark.scaledIterations.count * (countdownStart + 1), in: benchmark)
    }

    // One iteration is the whole batch: 100 child tasks on the global executor, each
    // dispatching 1,000 times into one store with an ignoring middleware, so every dispatch
    // hops to the main actor and the tasks contend for it.
    let (taskCount, dispatchesPerTask) = Suite.isSmokeRun ? (100, 10) : (100, 1_000)
    Benchmark(
        "Lockstep: 100,000 dispatches from 100 concurrent tasks",
        configuration: Suite.configuration(
            scalingFactor: .one,
            maxDuration: .seconds(3),
            maxIterations: 5,
            warmupIterations: 1
        )
    ) { @MainActor benchmark async in
        let store = CounterStore(
            state: Counter(),
            reducer: counterReducer,
            middlewares: [makeIgnoringStoreMiddleware()]
        )
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<taskCount {
                    group.addTask {
                        await dispatchRepeatedly(into: store, count: dispatchesPerTask)
                    }
                }
            }
        }
        benchmark.stopMeasurement()
        expect(store.state.value, equals: benchmark.scaledIterations.count * taskCount * dispatchesPerTask, in: benchmark)
    }
}

/// Registers a benchmark of one `.increment` dispatch per operation into a store with
/// `middlewares`.
private func registerDispatchBenchmark(
    _ name: String,
    middlewares: [CounterMiddleware],
    reductionsPerDispatch: Int = 1
) {
    Benchmark(name) { @MainActor benchmark async in
        let store = CounterStore(state: Counter(), reducer: counterReducer, middlewares: middlewares)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            await store.dispatch(.increment)
        }
        benchmark.stopMeasurement()
        expect(store.state.value, equals: benchmark.scaledIterations.count * reductionsPerDispatch, in: benchmark)
    }
}

/// Dispatches `count` times from the global executor, each dispatch hopping to the main actor.
@concurrent
func dispatchRepeatedly(into store: CounterStore, count: Int) async {
    for _ in 0..<count {
        await store.dispatch(.increment)
    }
}

/// Benchmarks of dispatch into a store with one registered stream effect.
func registerEffectBenchmarks() {
    // The dispatch delivers the action to the effect and waits until the effect has asked for
    // the next one: the cost of the effect bookkeeping, on top of the main actor's yield.
    Benchmark("Lockstep: dispatch, one registered effect ignoring the action") { @MainActor benchmark async in
        let store = CounterStore(
            state: Counter(),
            reducer: counterReducer,
            effects: [
                Effect { actions in
                    actions.ofCase { (action: CounterAction) -> CounterAction? in
                        if case .countdown = action { action } else { nil }
                    }
                },
            ]
        )
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            await store.dispatch(.increment)
        }
        benchmark.stopMeasurement()
        expect(store.state.value, equals: benchmark.scaledIterations.count, in: benchmark)
    }
}
