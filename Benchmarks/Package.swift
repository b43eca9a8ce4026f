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
        // Naming the traits turns off package-benchmark's default "RuntimeInterposer" trait,
        // whose swift-runtime-interposer dependency is not needed for the metrics used here.
        .package(
            url: "https://github.com/ordo-one/package-benchmark",
            from: "1.38.1",
            traits: ["MallocInterposer"]
        ),
    ],
    targets: [
        .executableTarget(
            name: "LockstepBenchmarks",
            dependencies: [
                .product(name: "Lockstep", package: "Lockstep"),
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "Benchmarks/LockstepBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "package-benchmark"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
