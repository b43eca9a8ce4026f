import Benchmark
import Lockstep

// Lockstep's `ActorStore.dispatch`, called from a task on the global executor: every dispatch
// hops onto the store's actor and back, as a server's request handler would.

typealias CounterActorStore = ActorStore<Counter, CounterAction>

func registerActorStoreBenchmarks() {
    registerActorDispatchBenchmark("Lockstep ActorStore: dispatch, no middleware", middlewares: [])

    registerActorDispatchBenchmark(
        "Lockstep ActorStore: dispatch, one ignoring middleware",
        middlewares: [makeIgnoringStoreMiddleware()]
    )

    registerActorDispatchBenchmark(
        "Lockstep ActorStore: dispatch, middleware dispatching one follow-up",
        middlewares: [makeFollowUpMiddleware()],
        reductionsPerDispatch: 2
    )
}

/// Registers a benchmark of one `.increment` dispatch per operation into an actor store with
/// `middlewares`.
private func registerActorDispatchBenchmark(
    _ name: String,
    middlewares: [CounterMiddleware],
    reductionsPerDispatch: Int = 1
) {
    Benchmark(name) { benchmark async in
        let store = CounterActorStore(state: Counter(), reducer: counterReducer, middlewares: middlewares)
        benchmark.startMeasurement()
        await dispatchRepeatedly(into: store, count: benchmark.scaledIterations.count)
        benchmark.stopMeasurement()
        let value = await store.state.value
        expect(value, equals: benchmark.scaledIterations.count * reductionsPerDispatch, in: benchmark)
    }
}

/// Dispatches `count` times from the global executor into an actor store.
@concurrent
func dispatchRepeatedly(into store: CounterActorStore, count: Int) async {
    for _ in 0..<count {
        await store.dispatch(.increment)
    }
}
