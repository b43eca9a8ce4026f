import Benchmark
import Foundation

// The benchmark suite of Lockstep. package-benchmark's plugin generates the `@main` runner that
// calls `benchmarks`; each group of benchmarks lives in its own file:
//
// - Baselines.swift: what a dispatch is compared with (a reducer call, an @Observable write, a
//   yield of the main actor, a task group, a naive three-phase store).
// - ReduxModelBenchmarks.swift: a model of ReSwift's synchronous store (the ReduxModel module),
//   as a same-run baseline.
// - StoreBenchmarks.swift: Lockstep's `Store.dispatch` in the configurations that matter.
// - ActorStoreBenchmarks.swift: the same dispatches into an `ActorStore`, off the main actor.
// - ActorMiddlewareFloors.swift: the floors of twenty middlewares on an actor (twenty calls
//   in a row, one empty child task, one child task making the twenty calls).
// - AppScaleBenchmarks.swift: large state with an in-place reducer, views that read one field,
//   twenty middlewares that ignore the action.
// - SelectionBenchmarks.swift: a buffered selection's read of a waiting value (no allocation).
// - RowBenchmarks.swift: a row action through forEachReducer and scope(forEach:), in rows found
//   by id through an index (RowsIndexedByID) and in an Array searched linearly.
//
// Every benchmark measures one operation per inner-loop step, so with the `.kilo` scaling factor
// the figures marked `*` in package-benchmark's output read directly as "per operation".
//
// Smoke mode: with LOCKSTEP_BENCHMARK_SMOKE=1 in the environment every benchmark runs exactly one
// iteration of one operation (and the concurrent batch is cut to 1,000 dispatches), so CI can
// build and run the suite quickly without judging its numbers. See scripts/smoke.

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = Suite.configuration()

    registerBaselineBenchmarks()
    registerReduxModelBenchmarks()
    registerStoreBenchmarks()
    registerActorStoreBenchmarks()
    registerActorMiddlewareFloors()
    registerEffectBenchmarks()
    registerAppScaleBenchmarks()
    registerRowBenchmarks()
    registerLoggingBenchmarks()
    registerLoggingBaselines()
    registerSelectionBenchmarks()
}

/// Settings shared by every benchmark of the suite.
enum Suite {
    /// Whether LOCKSTEP_BENCHMARK_SMOKE asks for a one-iteration smoke run.
    static let isSmokeRun: Bool = {
        guard let value = ProcessInfo.processInfo.environment["LOCKSTEP_BENCHMARK_SMOKE"] else {
            return false
        }
        return !["", "0", "false", "no"].contains(value.lowercased())
    }()

    /// The metrics every benchmark records.
    static let metrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal]

    /// The default configuration: one thousand operations an iteration, at most two seconds or
    /// ten thousand iterations a benchmark, so that a full run takes about a minute on 2 cores.
    static func configuration(
        scalingFactor: BenchmarkScalingFactor = .kilo,
        maxDuration: Duration = .seconds(2),
        maxIterations: Int = 10_000,
        warmupIterations: Int = 3
    ) -> Benchmark.Configuration {
        if isSmokeRun {
            return Benchmark.Configuration(
                metrics: metrics,
                warmupIterations: 0,
                scalingFactor: .one,
                maxDuration: .milliseconds(1),
                maxIterations: 1
            )
        }
        return Benchmark.Configuration(
            metrics: metrics,
            warmupIterations: warmupIterations,
            scalingFactor: scalingFactor,
            maxDuration: maxDuration,
            maxIterations: maxIterations
        )
    }
}
