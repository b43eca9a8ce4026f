// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Lockstep",
    platforms: [
        .macOS(.v15),
        .iOS(.v18),
        .tvOS(.v18),
        .watchOS(.v11),
        .visionOS(.v2),
    ],
    products: [
        .library(name: "Lockstep", targets: ["Lockstep"]),
        .library(name: "LockstepTesting", targets: ["LockstepTesting"]),
        .library(name: "LockstepQuery", targets: ["LockstepQuery"]),
        .library(name: "LockstepLogging", targets: ["LockstepLogging"]),
        // Publishers for stores and effects; an app that does not import it builds nothing more.
        .library(name: "LockstepCombine", targets: ["LockstepCombine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
        // Tests drive LockstepQuery's time with swift-clocks' TestClock, as the seed's users do.
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Combine for the LockstepCombine bridge on Linux; Apple platforms use their own Combine.
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        .target(
            name: "Lockstep",
            dependencies: [
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "LockstepTesting",
            dependencies: [
                "Lockstep",
                "LockstepLogging",
                .product(name: "CustomDump", package: "swift-custom-dump"),
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
                // Without it, on Linux, an issue reported through IssueReporting is only printed
                // and the test passes.
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "LockstepLogging",
            dependencies: [
                "Lockstep",
                .product(name: "CustomDump", package: "swift-custom-dump"),
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "LockstepQuery",
            dependencies: [
                "Lockstep",
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "LockstepCombine",
            dependencies: [
                "Lockstep",
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The seed features that both test targets exercise.
        .target(
            name: "LockstepFixtures",
            dependencies: ["Lockstep", "LockstepTesting"],
            path: "Tests/Fixtures",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "LockstepTestingTests",
            dependencies: [
                "LockstepTesting",
                "LockstepFixtures",
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "LockstepTests",
            dependencies: [
                "Lockstep",
                "LockstepFixtures",
                "LockstepTesting",
                // Without it, on Linux, an issue reported through IssueReporting is only printed.
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "LockstepLoggingTests",
            dependencies: [
                "LockstepLogging",
                "LockstepFixtures",
                "LockstepTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "LockstepQueryTests",
            dependencies: [
                "LockstepQuery",
                "LockstepFixtures",
                "LockstepTesting",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "LockstepCombineTests",
            dependencies: [
                "LockstepCombine",
                "LockstepTesting",
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
