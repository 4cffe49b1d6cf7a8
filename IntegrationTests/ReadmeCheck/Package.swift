// swift-tools-version: 6.2
import PackageDescription

// The README's quick start, compiled verbatim (Scripts/check-snippets.py keeps README.md in sync
// with the snippet regions here) against exactly the products the README tells a reader to add:
// DependencyKit in the app's target, DependencyKitTesting in its test target. Swift 6 language mode.
//
// The layout Concurrency and Actors recommends, where an isolation mistake in the docs shows:
// the container lives in a core module with the default (nonisolated) isolation, and the tests
// live in a target with default `MainActor` isolation, as in a new Xcode project, with the
// README's Swift Testing tests and its XCTest case. Built with warnings as errors and tested by
// Scripts/consumer-check.sh.
let package = Package(
    name: "ReadmeCheck",
    dependencies: [
        .package(name: "DependencyKit", path: "../..")
    ],
    targets: [
        .target(name: "Greetings", dependencies: [.product(name: "DependencyKit", package: "DependencyKit")]),
        .testTarget(
            name: "GreetingsTests",
            dependencies: ["Greetings", .product(name: "DependencyKitTesting", package: "DependencyKit")],
            swiftSettings: [.defaultIsolation(MainActor.self)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
