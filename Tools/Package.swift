// swift-tools-version: 6.2
import PackageDescription

// lockstep-log, the action-log inspector: a package of its own so that apps depending on
// Lockstep never resolve swift-argument-parser for it.
let package = Package(
    name: "LockstepTools",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "lockstep-log", targets: ["lockstep-log"]),
    ],
    dependencies: [
        .package(name: "Lockstep", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    ],
    targets: [
        // Reading a recording as untyped JSON, the timeline, diffs, and the text, HTML and
        // replay-test renderings.
        .target(
            name: "LogInspector",
            dependencies: [
                .product(name: "LockstepLogging", package: "Lockstep"),
                .product(name: "CustomDump", package: "swift-custom-dump"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "lockstep-log",
            dependencies: [
                "LogInspector",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "LogInspectorTests",
            dependencies: [
                "LogInspector",
                .product(name: "LockstepLogging", package: "Lockstep"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
