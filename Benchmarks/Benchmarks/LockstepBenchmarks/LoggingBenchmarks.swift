import Benchmark
import Foundation
import Lockstep
import LockstepLogging
import Logging

// What the logging observer and the recorder add to a dispatch. The logger's level (.error) is
// above the observer's (.info): "installed but disabled". By default the observer reads the level
// once and is then off, so the store leaves it out; "read on each action" measures the observer
// that reads the level before every action, for handlers that change their level in place. The stalled sink never finishes a
// write, so after the first the recorder's buffer fills and every later reduction is dropped:
// the cost a slow sink can put on dispatch.

/// A log handler that drops everything; the logger's level decides before it is reached.
struct DiscardingLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .error

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {}
}

/// A sink whose writes never return.
struct StalledSink: ActionLogSink {
    func write(_ data: Data) async throws {
        await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
    }
}

@inline(never)
func makeDisabledLogger() -> Logger {
    Logger(label: "benchmark") { _ in DiscardingLogHandler() }
}

func registerLoggingBenchmarks() {
    registerObservedDispatchBenchmark(
        "Lockstep: dispatch, no middleware, disabled logger",
        middlewares: [],
        observers: [.logging(to: makeDisabledLogger())])

    registerObservedDispatchBenchmark(
        "Lockstep: dispatch, no middleware, disabled logger read on each action",
        middlewares: [],
        observers: [.logging(to: makeDisabledLogger(), readsLevelOnEachAction: true)])

    registerObservedDispatchBenchmark(
        "Lockstep: dispatch, one ignoring middleware, disabled logger",
        middlewares: [makeIgnoringStoreMiddleware()],
        observers: [.logging(to: makeDisabledLogger())])

    Benchmark("Lockstep: dispatch, no middleware, recorder on a stalled sink") { @MainActor benchmark async in
        let recorder = ActionRecorder<Counter, CounterAction>(sink: StalledSink(), capacity: 64)
        let store = CounterStore(state: Counter(), reducer: counterReducer, observers: [recorder.observer])
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            await store.dispatch(.increment)
        }
        benchmark.stopMeasurement()
        expect(store.state.value, equals: benchmark.scaledIterations.count, in: benchmark)
    }
}

private func registerObservedDispatchBenchmark(
    _ name: String,
    middlewares: [CounterMiddleware],
    observers: [ActionObserver<Counter, CounterAction>]
) {
    Benchmark(name) { @MainActor benchmark async in
        let store = CounterStore(
            state: Counter(), reducer: counterReducer, middlewares: middlewares, observers: observers)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            await store.dispatch(.increment)
        }
        benchmark.stopMeasurement()
        expect(store.state.value, equals: benchmark.scaledIterations.count, in: benchmark)
    }
}

/// The floor of any disabled logging: swift-log's own level check, as `logger.info(…)` makes it.
func registerLoggingBaselines() {
    Benchmark("Baseline: a disabled swift-log level check") { benchmark in
        let logger = makeDisabledLogger()
        var enabled = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            if logger.logLevel <= .info { enabled += 1 }
        }
        benchmark.stopMeasurement()
        blackHole(enabled)
    }
}
