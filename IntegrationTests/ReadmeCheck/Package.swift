// swift-tools-version: 6.1
import PackageDescription

// The README's quick start, compiled verbatim (Scripts/check-snippets.py keeps README.md in sync
// with the snippet regions here) against exactly the products the README tells a reader to add:
// DependencyKit in the app's target, DependencyKitTesting in its test target. Swift 6 language
// mode, tools 6.1: the minimum the README states. Built and tested by Scripts/consumer-check.sh.
let package = Package(
    name: "ReadmeCheck",
    dependencies: [
        .package(name: "DependencyKit", path: "../..")
    ],
    targets: [
        .target(name: "Greetings", dependencies: [.product(name: "DependencyKit", package: "DependencyKit")]),
        .testTarget(
            name: "GreetingsTests",
            dependencies: ["Greetings", .product(name: "DependencyKitTesting", package: "DependencyKit")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
