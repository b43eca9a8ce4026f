import Benchmark
import Lockstep

let benchmarks: @Sendable () -> Void = {
    Benchmark("probe") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(1) }
    }
}
