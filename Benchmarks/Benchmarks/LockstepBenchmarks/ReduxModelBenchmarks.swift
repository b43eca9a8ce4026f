import Benchmark
import ReduxModel

// The ReSwift-style baseline: one dispatch of an existential action through one pass-through
// middleware, the reducer, and one subscriber of the whole state (which skips repeats, since
// `Counter` is `Equatable`), as an app with one subscribed screen has.

extension CounterAction: ReduxModel.Action {}

/// The counter reducer in the type-erased form a ReSwift-style store takes.
func reduxCounterReducer(_ action: any ReduxModel.Action, _ state: Counter?) -> Counter {
    let state = state ?? Counter()
    guard let action = action as? CounterAction else { return state }
    return counterReducer(state, action)
}

/// A middleware that passes every action on unchanged.
func passThroughReduxMiddleware(
    _ dispatch: @escaping ReduxModel.DispatchFunction,
    _ getState: @escaping () -> Counter?
) -> (_ next: @escaping ReduxModel.DispatchFunction) -> ReduxModel.DispatchFunction {
    { next in
        { action in next(action) }
    }
}

/// A subscriber that counts the states it is given.
final class CountingSubscriber: StoreSubscriber {
    private(set) var received = 0

    func newState(state: Counter) {
        received &+= 1
        blackHole(state)
    }
}

func registerReduxModelBenchmarks() {
    Benchmark("Baseline: ReSwift-style synchronous store") { benchmark in
        let store = ReduxModel.Store<Counter>(
            reducer: reduxCounterReducer,
            state: Counter(),
            middleware: [passThroughReduxMiddleware]
        )
        let subscriber = CountingSubscriber()
        store.subscribe(subscriber)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            store.dispatch(CounterAction.increment)
        }
        benchmark.stopMeasurement()
        expect(store.state?.value ?? 0, equals: benchmark.scaledIterations.count, in: benchmark)
        // The subscriber saw the initial state and every dispatch's new state.
        expect(subscriber.received, equals: benchmark.scaledIterations.count + 1, in: benchmark, "number of notifications")
    }
}
