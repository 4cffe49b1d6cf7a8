// swift-tools-version: 6.1
import PackageDescription

// DependencyKit inside a shared library that a host process loads with `dlopen`: see
// Scripts/dlopen-check.sh. Its own package, so that the root manifest has no dynamic product.
let package = Package(
    name: "DynamicLoadingCheck",
    products: [
        .library(name: "GraphPlugin", type: .dynamic, targets: ["GraphPlugin"])
    ],
    dependencies: [
        .package(name: "DependencyKit", path: "../..")
    ],
    targets: [
        .target(
            name: "GraphPlugin",
            dependencies: [.product(name: "DependencyKit", package: "DependencyKit")],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
