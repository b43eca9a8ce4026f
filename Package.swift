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
    ],
    targets: [
        .target(
            name: "Lockstep",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "LockstepTests",
            dependencies: ["Lockstep"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
