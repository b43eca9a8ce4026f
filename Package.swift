// swift-tools-version: 6.2
import PackageDescription

// Lockstep 0.3.0 (CHANGELOG.md), released 2026-12-07. An app depends on it with
// `.package(url: "https://github.com/lockstep-swift/lockstep", from: "0.3.0")`, gives its app
// target the Lockstep product (and LockstepQuery, LockstepLogging, LockstepCombine,
// LockstepCasePaths or LockstepDependencies if it uses them) and its test target LockstepTesting
// (and LockstepLoggingTesting to replay recordings, LockstepCasePathsTesting to receive by case
// key path, LockstepDependenciesTesting to change a test store's dependencies between steps).

// `LOCKSTEP_TASK_GROUP_RUNNER=1 swift test --scratch-path .build-task-group` runs the suite on
// the middleware runner of the OS versions without immediate tasks (before macOS 26 and iOS
// 26), which Linux never takes on its own; `.ci/run` runs the suite, and Thread Sanitizer, that
// way too.
let taskGroupRunnerSettings: [SwiftSetting] =
    Context.environment["LOCKSTEP_TASK_GROUP_RUNNER"] != nil ? [.define("LOCKSTEP_TASK_GROUP_RUNNER")] : []

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
        // The store, reducers, middleware, effects and selectors: for the app target.
        .library(name: "Lockstep", targets: ["Lockstep"]),
        // TestStore, MockStore, TestRunner and the test doubles: for the test target.
        .library(name: "LockstepTesting", targets: ["LockstepTesting"]),
        // The query cache for server data: for the app target, optional.
        .library(name: "LockstepQuery", targets: ["LockstepQuery"]),
        // Logging and recording every action: for the app target, optional.
        .library(name: "LockstepLogging", targets: ["LockstepLogging"]),
        // Replaying a recorded session in a TestStore: for the test target, optional.
        .library(name: "LockstepLoggingTesting", targets: ["LockstepLoggingTesting"]),
        // Publishers for stores and effects; an app that does not import it builds nothing more.
        .library(name: "LockstepCombine", targets: ["LockstepCombine"]),
        // A part of the state saved to a file and loaded at start: for the app target, optional
        // (it brings Foundation, which the core does not).
        .library(name: "LockstepPersistence", targets: ["LockstepPersistence"]),
        // Scoping with case key paths of @CasePathable actions: for the app target, optional. It
        // brings swift-case-paths and its macros (swift-syntax); an app that does not use it
        // builds neither.
        .library(name: "LockstepCasePaths", targets: ["LockstepCasePaths"]),
        // TestStore.receive with a case key path: for the test target, with LockstepCasePaths.
        .library(name: "LockstepCasePathsTesting", targets: ["LockstepCasePathsTesting"]),
        // Stores that keep the swift-dependencies values they were made with, and features that
        // change them for their part: for the app target, optional. It brings swift-dependencies'
        // Dependencies product (no macros); an app that does not use it builds neither.
        .library(name: "LockstepDependencies", targets: ["LockstepDependencies"]),
        // TestStore.dependencies, changed between steps: for the test target, with
        // LockstepDependencies.
        .library(name: "LockstepDependenciesTesting", targets: ["LockstepDependenciesTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
        // Tests drive LockstepQuery's time with swift-clocks' TestClock.
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Deque for the queues of broadcasts and readers (only its DequeModule is built).
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // Combine for the LockstepCombine bridge on Linux; Apple platforms use their own Combine.
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        // IdentifiedArray, whose rows the stores find by id in constant time (as TCA, Lockstep
        // depends on it).
        .package(url: "https://github.com/pointfreeco/swift-identified-collections", from: "1.1.1"),
        // @CasePathable and case key paths, for LockstepCasePaths only.
        .package(url: "https://github.com/pointfreeco/swift-case-paths", from: "1.10.0"),
        // @Dependency, for LockstepDependencies only (its Dependencies product needs no macros).
        .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1"),
    ],
    targets: [
        .target(
            name: "Lockstep",
            dependencies: [
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)] + taskGroupRunnerSettings
        ),
        .target(
            name: "LockstepTesting",
            dependencies: [
                "Lockstep",
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
        // Replaying a recorded session in a test store: the one place that needs both the
        // toolkit and the logging module, so that LockstepTesting does not pull swift-log.
        .target(
            name: "LockstepLoggingTesting",
            dependencies: [
                "LockstepLogging",
                "LockstepTesting",
                .product(name: "CustomDump", package: "swift-custom-dump"),
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
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "LockstepPersistence",
            dependencies: [
                "Lockstep",
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "LockstepCasePaths",
            dependencies: [
                "Lockstep",
                .product(name: "CasePaths", package: "swift-case-paths"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "LockstepCasePathsTesting",
            dependencies: [
                "LockstepCasePaths",
                "LockstepTesting",
                .product(name: "CasePaths", package: "swift-case-paths"),
                .product(name: "CustomDump", package: "swift-custom-dump"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "LockstepDependencies",
            dependencies: [
                "Lockstep",
                .product(name: "Dependencies", package: "swift-dependencies"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "LockstepDependenciesTesting",
            dependencies: [
                "LockstepDependencies",
                "LockstepTesting",
                .product(name: "Dependencies", package: "swift-dependencies"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The example features that the test targets exercise.
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
                // TCA's way of testing time: swift-clocks' TestClock, seen by the toolkit's quiet period.
                .product(name: "Clocks", package: "swift-clocks"),
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
                .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
                // Without it, on Linux, an issue reported through IssueReporting is only printed.
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "LockstepLoggingTests",
            dependencies: [
                "LockstepLogging",
                "LockstepLoggingTesting",
                "LockstepFixtures",
                "LockstepTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Stand-ins for the SwiftUI declarations the SwiftUI article's views use, so that they
        // compile on Linux; empty where SwiftUI exists. It also compiles Lockstep's SwiftUI
        // helpers (a symbolic link to them) against its stand-in Binding. Tests only: no product
        // ships it.
        .target(
            name: "SwiftUIStandIns",
            dependencies: ["Lockstep"],
            path: "Tests/SwiftUIStandIns",
            swiftSettings: [.swiftLanguageMode(.v6), .define("LOCKSTEP_SWIFTUI_STAND_INS")]
        ),
        // The SyncUps example (Examples/Sources/SyncUps, through a symbolic link), compiled with
        // its SwiftUI views against the stand-ins, so that the views compile on Linux too (the
        // examples package leaves them out where SwiftUI does not exist). Tests only: no product
        // ships it.
        .target(
            name: "SyncUpsViews",
            dependencies: [
                "Lockstep",
                "LockstepCasePaths",
                "LockstepPersistence",
                "LockstepDependencies",
                "SwiftUIStandIns",
                .product(name: "Dependencies", package: "swift-dependencies"),
                // SyncUps' SettingsClient is a @DependencyClient (tests only: no product has macros).
                .product(name: "DependenciesMacros", package: "swift-dependencies"),
                .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
            ],
            path: "Tests/SyncUpsViews",
            swiftSettings: [.swiftLanguageMode(.v6), .define("LOCKSTEP_SWIFTUI_STAND_INS")]
        ),
        // The code of the DocC articles, compiled and run, and a check that every Swift snippet
        // of those articles is quoted from compiled code.
        .testTarget(
            name: "DocumentationTests",
            dependencies: [
                "Lockstep",
                "LockstepTesting",
                "LockstepQuery",
                "LockstepLogging",
                "LockstepLoggingTesting",
                "LockstepPersistence",
                "SwiftUIStandIns",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
                // No IssueReporting: the articles' code gets `unimplemented` through Lockstep.
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ],
            // Recorded sessions the logging article's test replays, read through #filePath.
            exclude: ["Fixtures"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The README's snippets, compiled and run; a target of their own, as they are top-level
        // code with the names an app uses (AppState, TodayState). SnippetTests checks that the
        // README quotes them.
        .testTarget(
            name: "ReadmeTests",
            dependencies: [
                "Lockstep",
                "LockstepTesting",
                "LockstepQuery",
                "SwiftUIStandIns",
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
        // The code of LockstepQuery's DocC articles, compiled and run; a target of its own, as
        // its articles use the names an app uses (User, AppState). SnippetTests, in
        // DocumentationTests, checks that the articles quote it.
        .testTarget(
            name: "QueryDocumentationTests",
            dependencies: [
                "Lockstep",
                "LockstepQuery",
                "LockstepTesting",
                "SwiftUIStandIns",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "LockstepCasePathsTests",
            dependencies: [
                "LockstepCasePaths",
                "LockstepCasePathsTesting",
                "LockstepTesting",
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "LockstepPersistenceTests",
            dependencies: [
                "LockstepPersistence",
                "LockstepTesting",
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "LockstepDependenciesTests",
            dependencies: [
                "LockstepDependencies",
                "LockstepDependenciesTesting",
                "LockstepTesting",
                "LockstepQuery",
                "LockstepCombine",
                .product(name: "Dependencies", package: "swift-dependencies"),
                // The `.dependency` test trait.
                .product(name: "DependenciesTestSupport", package: "swift-dependencies"),
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

// The documentation site: `LOCKSTEP_DOCS=1 swift package generate-documentation` (see
// scripts/generate-docs). Only then is swift-docc-plugin resolved, so apps that depend on
// Lockstep never fetch it.
if Context.environment["LOCKSTEP_DOCS"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
