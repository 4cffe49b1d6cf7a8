// swift-tools-version: 6.1
import PackageDescription

// Two small programs, each written idiomatically in the library it migrates from and again on
// DependencyKit, and one test suite that runs against both versions of each program. The migration
// articles (Migrating from Swinject, from Factory, from swift-dependencies) show this code; CI builds
// it and runs the suite (Scripts/migrations-check.sh).
let otherFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]
let swiftSettings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")] + otherFeatures

let package = Package(
    name: "Migrations",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    dependencies: [
        .package(name: "DependencyKit", path: "../.."),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
        // Only the `Dependencies` product: its macros (and so swift-syntax) are never built.
        .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
    ],
    targets: [
        // An orders service: the domain, with no dependency injection in it, then its wiring in Swinject
        // and in DependencyKit.
        .target(name: "OrdersDomain", swiftSettings: swiftSettings),
        // Without `ExistentialAny`, so that the registrations read as Swinject's documentation writes them
        // (`register(Clock.self)`, not `register((any Clock).self)`).
        .target(
            name: "OrdersOnSwinject",
            dependencies: ["OrdersDomain", .product(name: "Swinject", package: "Swinject")],
            swiftSettings: otherFeatures
        ),
        .target(
            name: "OrdersOnDependencyKit",
            dependencies: ["OrdersDomain", .product(name: "DependencyKit", package: "DependencyKit")],
            swiftSettings: swiftSettings
        ),
        // A notes feature: the domain, then its dependencies in swift-dependencies and in DependencyKit.
        .target(name: "NotesDomain", swiftSettings: swiftSettings),
        .target(
            name: "NotesOnSwiftDependencies",
            dependencies: ["NotesDomain", .product(name: "Dependencies", package: "swift-dependencies")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "NotesOnDependencyKit",
            dependencies: ["NotesDomain", .product(name: "DependencyKit", package: "DependencyKit")],
            swiftSettings: swiftSettings
        ),
        // One suite per program, each test run against both versions of it.
        .testTarget(
            name: "MigrationTests",
            dependencies: [
                "OrdersDomain", "OrdersOnSwinject", "OrdersOnDependencyKit",
                "NotesDomain", "NotesOnSwiftDependencies", "NotesOnDependencyKit",
                .product(name: "Swinject", package: "Swinject"),
                .product(name: "Dependencies", package: "swift-dependencies"),
                // What lets swift-dependencies report an unimplemented test value to Swift Testing.
                .product(name: "DependenciesTestSupport", package: "swift-dependencies"),
                .product(name: "DependencyKit", package: "DependencyKit"),
                .product(name: "DependencyKitTesting", package: "DependencyKit"),
            ],
            swiftSettings: otherFeatures  // the Swinject fixture registers as the Swinject program does
        ),
    ],
    swiftLanguageModes: [.v6]
)
