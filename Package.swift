// swift-tools-version: 6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "DependencyKit",
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
    products: [
        .library(name: "DependencyKit", targets: ["DependencyKit"]),
        .library(name: "DependencyKitTesting", targets: ["DependencyKitTesting"]),
        .library(name: "HTTPServiceKit", targets: ["HTTPServiceKit"]),
        .library(name: "AppCore", targets: ["AppCore"]),
    ],
    traits: [
        // Replaces every runtime shortcut (Sources/DependencyKit/Internal/RuntimeShortcuts.swift) with
        // public API: `swift build --traits PublicAPIOnly`, or `.package(..., traits: ["PublicAPIOnly"])`.
        .trait(
            name: "PublicAPIOnly",
            description: "Use only public Swift API: no runtime entry points, per-thread scope copy or raw blocks."
        )
    ],
    targets: [
        .target(
            name: "_DependencyKitShims",
            cSettings: [.define("DK_PUBLIC_API_ONLY", .when(traits: ["PublicAPIOnly"]))]
        ),
        .target(name: "DependencyKit", dependencies: ["_DependencyKitShims"], swiftSettings: swiftSettings),
        .target(name: "DependencyKitTesting", dependencies: ["DependencyKit"], swiftSettings: swiftSettings),
        // JSON over HTTP, with its test doubles: depends on nothing but Foundation, names nothing of AppCore.
        .target(name: "HTTPServiceKit", swiftSettings: swiftSettings),
        .target(name: "AppCore", dependencies: ["DependencyKit", "HTTPServiceKit"], swiftSettings: swiftSettings),
        .testTarget(
            name: "DependencyKitTests",
            dependencies: ["DependencyKit", "DependencyKitTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DependencyKitTestingTests",
            dependencies: ["DependencyKit", "DependencyKitTesting", "AppCore"],
            swiftSettings: swiftSettings
        ),
        // What the tests of HTTPServiceKit and AppCore share: threads a test joins, a hang guard.
        .target(
            name: "TestSupport", dependencies: ["HTTPServiceKit"], path: "Tests/TestSupport",
            swiftSettings: swiftSettings),
        .testTarget(
            name: "HTTPServiceKitTests", dependencies: ["HTTPServiceKit", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "AppCoreTests",
            dependencies: ["AppCore", "DependencyKit", "DependencyKitTesting", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        // The code samples of the DocC articles; Scripts/check-snippets.py keeps the articles in sync.
        .testTarget(
            name: "DocumentationSnippets",
            dependencies: ["AppCore", "DependencyKit", "DependencyKitTesting", "HTTPServiceKit"],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
