// swift-tools-version: 6.1
import PackageDescription

// The example apps, runnable on Linux, with their tests. A package of its own so that users of
// Lockstep never resolve GRDB or swift-argument-parser. Each app's logic is a library under
// Sources/ (Scoreboard) and its command an executable under Commands/ (scoreboard): two folders
// whose names differ only in case would be one folder on a Mac's case-insensitive disk.
let package = Package(
    name: "LockstepExamples",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Lockstep", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/pointfreeco/swift-identified-collections", from: "1.1.1"),
        // @Dependency for SyncUps' reducers, and its macros (@DependencyClient) for one client
        // of SyncUps: the app chooses the build cost of swift-syntax, not Lockstep.
        .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1"),
    ],
    targets: [
        // What the example commands share: the shared database's location and one-line errors.
        .target(name: "ExampleSupport", swiftSettings: [.swiftLanguageMode(.v6)]),
        // What the end-to-end tests share: running an example's executable.
        .target(name: "ExampleTestSupport", path: "Tests/ExampleTestSupport", swiftSettings: [.swiftLanguageMode(.v6)]),
        // The shift calendar: the Today feature, its middleware and a SQLite calendar.
        .target(
            name: "ShiftScheduler",
            dependencies: [
                .product(name: "Lockstep", package: "Lockstep"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "shift-scheduler",
            dependencies: [
                "ShiftScheduler",
                "ExampleSupport",
                .product(name: "Lockstep", package: "Lockstep"),
                .product(name: "LockstepLogging", package: "Lockstep"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Commands/shift-scheduler",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "ShiftSchedulerTests",
            dependencies: [
                "ShiftScheduler",
                // Built for the end-to-end test, which runs it.
                "shift-scheduler",
                "ExampleTestSupport",
                .product(name: "LockstepLogging", package: "Lockstep"),
                // Replay, for the recordings and for the test `lockstep-log test` wrote
                // (AddSessionReplayTests).
                .product(name: "LockstepLoggingTesting", package: "Lockstep"),
                .product(name: "LockstepTesting", package: "Lockstep"),
            ],
            // Sessions recorded with `shift-scheduler --record`, replayed by the tests.
            resources: [.copy("Fixtures")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for app in [
    (library: "Scoreboard", executable: "scoreboard", usesDatabase: true),
    (library: "ProfileEditor", executable: "profile-editor", usesDatabase: false),
    (library: "ScreenshotWatcher", executable: "screenshot-watcher", usesDatabase: false),
] {
    var libraryDependencies: [Target.Dependency] = [.product(name: "Lockstep", package: "Lockstep")]
    if app.usesDatabase {
        libraryDependencies.append(.product(name: "GRDB", package: "GRDB.swift"))
    }
    package.targets += [
        .target(name: app.library, dependencies: libraryDependencies, swiftSettings: [.swiftLanguageMode(.v6)]),
        .executableTarget(
            name: app.executable,
            dependencies: [
                .byName(name: app.library),
                "ExampleSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Commands/\(app.executable)",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "\(app.library)Tests",
            dependencies: [
                .byName(name: app.library),
                .byName(name: app.executable),
                "ExampleTestSupport",
                .product(name: "LockstepTesting", package: "Lockstep"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
}

// The reading list: several features (rows, a presented editor, a debounced search, a remote
// catalog and SQLite persistence) composed with child stores and scoped middlewares.
package.targets += [
    .target(
        name: "ReadingList",
        dependencies: [
            .product(name: "Lockstep", package: "Lockstep"),
            .product(name: "LockstepQuery", package: "Lockstep"),
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
        ],
        swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .executableTarget(
        name: "reading-list",
        dependencies: [
            "ReadingList",
            "ExampleSupport",
            .product(name: "Lockstep", package: "Lockstep"),
            .product(name: "LockstepQuery", package: "Lockstep"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ],
        path: "Commands/reading-list",
        swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .testTarget(
        name: "ReadingListTests",
        dependencies: [
            "ReadingList",
            // Built for the end-to-end test, which runs it.
            "reading-list",
            "ExampleTestSupport",
            .product(name: "LockstepQuery", package: "Lockstep"),
            .product(name: "LockstepTesting", package: "Lockstep"),
            .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
        ],
        swiftSettings: [.swiftLanguageMode(.v6)]
    ),
]

// The issue tracker: a paged list from an infinite query with its retries shown, a debounced
// search, a presented issue whose comments come from a query bridged by the feature itself,
// and optimistic comments and stars, on a fake in-memory server.
package.targets += [
    .target(
        name: "IssueTracker",
        dependencies: [
            .product(name: "Lockstep", package: "Lockstep"),
            .product(name: "LockstepQuery", package: "Lockstep"),
        ],
        swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .executableTarget(
        name: "issue-tracker",
        dependencies: [
            "IssueTracker",
            "ExampleSupport",
            .product(name: "Lockstep", package: "Lockstep"),
            .product(name: "LockstepQuery", package: "Lockstep"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ],
        path: "Commands/issue-tracker",
        swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .testTarget(
        name: "IssueTrackerTests",
        dependencies: [
            "IssueTracker",
            // Built for the end-to-end test, which runs it.
            "issue-tracker",
            "ExampleTestSupport",
            .product(name: "LockstepQuery", package: "Lockstep"),
            .product(name: "LockstepTesting", package: "Lockstep"),
        ],
        swiftSettings: [.swiftLanguageMode(.v6)]
    ),
]

// SyncUps, TCA's navigation-heavy example: a list of sync-ups, a form in a sheet, a detail with
// an enum of destinations and alerts, a meeting timed by an injected clock with a speech
// transcript, a stack of three kinds of screen, and the sync-ups persisted in a file. Its views
// are compiled on Linux by the main package's SyncUpsViews target, against the SwiftUI stand-ins.
package.targets += [
    .target(
        name: "SyncUps",
        dependencies: [
            .product(name: "Lockstep", package: "Lockstep"),
            .product(name: "LockstepCasePaths", package: "Lockstep"),
            .product(name: "LockstepPersistence", package: "Lockstep"),
            .product(name: "LockstepDependencies", package: "Lockstep"),
            .product(name: "Dependencies", package: "swift-dependencies"),
            // @DependencyClient, for SettingsClient: swift-syntax, built because this app chose it.
            .product(name: "DependenciesMacros", package: "swift-dependencies"),
            .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
        ],
        swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .testTarget(
        name: "SyncUpsTests",
        dependencies: [
            "SyncUps",
            .product(name: "LockstepTesting", package: "Lockstep"),
            .product(name: "LockstepDependencies", package: "Lockstep"),
            .product(name: "LockstepDependenciesTesting", package: "Lockstep"),
            .product(name: "Dependencies", package: "swift-dependencies"),
            .product(name: "LockstepCasePathsTesting", package: "Lockstep"),
            .product(name: "LockstepPersistence", package: "Lockstep"),
            .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
        ],
        swiftSettings: [.swiftLanguageMode(.v6)]
    ),
]
