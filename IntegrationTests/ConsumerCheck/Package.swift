// swift-tools-version: 6.2
import PackageDescription

// A consumer of DependencyKit with Swift 6.2's approachable-concurrency settings: everything is
// main-actor isolated unless it says otherwise. CI builds it with -warnings-as-errors to prove the
// library causes no isolation errors or warnings there (Scripts/consumer-check.sh).
let approachableConcurrency: [SwiftSetting] = [
    .defaultIsolation(MainActor.self),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    .enableUpcomingFeature("InferIsolatedConformances"),
]

let package = Package(
    name: "ConsumerCheck",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    dependencies: [
        .package(name: "DependencyKit", path: "../..")
    ],
    targets: [
        // A library with a container of its own that the app subclasses (Multi-Module Apps);
        // no default isolation, like most libraries.
        .target(
            name: "ForecastKit",
            dependencies: [.product(name: "DependencyKit", package: "DependencyKit")]
        ),
        .executableTarget(
            name: "ConsumerCheck",
            dependencies: [
                "ForecastKit",
                .product(name: "AppCore", package: "DependencyKit"),
                .product(name: "DependencyKit", package: "DependencyKit"),
            ],
            swiftSettings: approachableConcurrency
        ),
        .testTarget(
            name: "ConsumerCheckTests",
            dependencies: [
                "ConsumerCheck",
                "ForecastKit",
                .product(name: "AppCore", package: "DependencyKit"),
                .product(name: "DependencyKit", package: "DependencyKit"),
                .product(name: "DependencyKitTesting", package: "DependencyKit"),
            ],
            swiftSettings: approachableConcurrency
        ),
    ],
    swiftLanguageModes: [.v6]
)
