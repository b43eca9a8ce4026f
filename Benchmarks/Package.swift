// swift-tools-version: 6.1
import PackageDescription

// The benchmarks of Lockstep, kept in their own package so that the library itself does not
// depend on package-benchmark. Run them from the repository root with
//
//     swift package --package-path Benchmarks benchmark
//
// See README.md beside this file.
let package = Package(
    name: "LockstepBenchmarks",
    platforms: [
        .macOS(.v15),
    ],
    dependencies: [
        .package(name: "Lockstep", path: ".."),
        // package-benchmark, published under its current name "benchmark" (the plugin warns
        // about the old "package-benchmark" identifier). Naming the traits turns off its default
        // "RuntimeInterposer" trait, whose swift-runtime-interposer dependency is not mirrored
        // here and is needed only for the retain/release metrics, which this suite does not use.
        .package(
            url: "https://github.com/ordo-one/benchmark",
            from: "1.38.1",
            traits: ["MallocInterposer"]
        ),
    ],
    targets: [
        // A model of ReSwift's synchronous store, in a module of its own as ReSwift is to an app.
        .target(
            name: "ReduxModel",
            path: "Benchmarks/ReduxModel",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The regression gate of issue 29 (scripts/gate): ratios against floors measured in the
        // same run, each with a bound; a plain release executable, so it builds without the
        // benchmark plugin. Its folder is not directly under Benchmarks/, where package-benchmark
        // takes every executable target for a benchmark suite (and the smoke run would run it).
        .executableTarget(
            name: "LockstepGate",
            dependencies: [
                "ReduxModel",
                .product(name: "Lockstep", package: "Lockstep"),
            ],
            path: "Gate/LockstepGate",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "LockstepBenchmarks",
            dependencies: [
                "ReduxModel",
                .product(name: "Lockstep", package: "Lockstep"),
                .product(name: "LockstepLogging", package: "Lockstep"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/LockstepBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
