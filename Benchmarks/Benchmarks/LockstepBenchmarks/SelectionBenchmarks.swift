import Benchmark
import Lockstep

// A buffered selection read where the value is already waiting, with no test store anywhere:
// the read takes one lock and allocates nothing (mallocCountTotal 0). The test toolkit's
// bookkeeping of a wait (a quiescence watch, a waiter reservation) is for an empty buffer only.

func registerSelectionBenchmarks() {
    Benchmark("Lockstep: a buffered selection's next(), value waiting, no test store") { @MainActor benchmark async in
        let store = CounterStore(state: Counter(), reducer: counterReducer)
        var values = store.select(\.value, bufferingPolicy: .unbounded).makeAsyncIterator()
        _ = await values.next()   // the current value, 0
        for _ in benchmark.scaledIterations {
            await store.dispatch(.increment)
        }
        var last = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            last = await values.next() ?? -1
        }
        benchmark.stopMeasurement()
        expect(last, equals: benchmark.scaledIterations.count, in: benchmark)
    }
}
