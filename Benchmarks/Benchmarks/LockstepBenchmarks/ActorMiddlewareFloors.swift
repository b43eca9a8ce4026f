import Benchmark
import Lockstep

// The floors of "twenty ignoring middlewares" on an `ActorStore`, measured in the same run:
// what the twenty calls cost with no concurrency at all, what the one child task that
// concurrency needs costs with nothing in it, and the two together. Each is one `.increment` reduction on an actor,
// dispatched from the global executor as the store's benchmarks are.

/// A hand-written actor store that reduces, then awaits its middlewares one after another: a
/// middleware that suspends holds up the rest, so it breaks Lockstep's contract, but no design
/// that calls every middleware can cost less.
private actor SequentialActorStore {
    private(set) var state = Counter()
    private let middlewares: [CounterMiddleware]
    private let dispatcher = Dispatcher<CounterAction> { _ in }

    init(middlewares: [CounterMiddleware]) {
        self.middlewares = middlewares
    }

    func dispatch(_ action: CounterAction) async {
        state = counterReducer(state, action)
        for middleware in middlewares {
            await middleware(state, action, dispatcher)
        }
    }
}

/// A hand-written actor store that reduces, then starts one immediate child task in a discarding
/// task group, which calls the middlewares one after another, and waits for it. With no
/// middleware: the least a dispatch pays to run middlewares concurrently. With twenty: the
/// least Lockstep's chained middlewares can cost when none suspends (it also breaks the contract,
/// since it starts no second child when one suspends).
private actor OneChildTaskActorStore {
    private(set) var state = Counter()
    private let middlewares: [CounterMiddleware]
    private let dispatcher = Dispatcher<CounterAction> { _ in }

    init(middlewares: [CounterMiddleware] = []) {
        self.middlewares = middlewares
    }

    func dispatch(_ action: CounterAction) async {
        state = counterReducer(state, action)
        let (state, middlewares, dispatcher) = (state, middlewares, dispatcher)
        await withDiscardingTaskGroup { group in
            group.addImmediateTask {
                for middleware in middlewares {
                    await middleware(state, action, dispatcher)
                }
            }
        }
    }
}

func registerActorMiddlewareFloors() {
    let twenty = Array(repeating: makeIgnoringStoreMiddleware(), count: 20)
    Benchmark("Baseline ActorStore: twenty middleware calls in a row, no task") { benchmark async in
        let store = SequentialActorStore(middlewares: twenty)
        benchmark.startMeasurement()
        await dispatchRepeatedly(count: benchmark.scaledIterations.count) { await store.dispatch(.increment) }
        benchmark.stopMeasurement()
        let value = await store.state.value
        expect(value, equals: benchmark.scaledIterations.count, in: benchmark)
    }

    for (name, middlewares) in [
        ("Baseline ActorStore: one empty immediate child task", []),
        ("Baseline ActorStore: one immediate child task calling twenty middlewares in a row", twenty),
    ] {
        Benchmark(name) { benchmark async in
            let store = OneChildTaskActorStore(middlewares: middlewares)
            benchmark.startMeasurement()
            await dispatchRepeatedly(count: benchmark.scaledIterations.count) { await store.dispatch(.increment) }
            benchmark.stopMeasurement()
            let value = await store.state.value
            expect(value, equals: benchmark.scaledIterations.count, in: benchmark)
        }
    }
}

/// Calls `dispatch` `count` times from the global executor.
@concurrent
private func dispatchRepeatedly(count: Int, _ dispatch: @Sendable () async -> Void) async {
    for _ in 0..<count {
        await dispatch()
    }
}
