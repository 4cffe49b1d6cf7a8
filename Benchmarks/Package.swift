// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in their own package so that the library's manifest stays dependency-free.
// Run them with `swift package benchmark` from this folder
// (see Sources/DependencyKit/DependencyKit.docc/Articles/Performance.md).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "DependencyKitBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "DependencyKit", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/Swinject/Swinject", from: "2.10.0"),
        .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1"),
    ],
    targets: [
        // Containers with 10 and 1,000 resolve methods, generated once by Scripts/generate-containers.py and
        // committed. They live in their own module so that the benchmark calls them across a module boundary,
        // as an app calls AppCore's container.
        .target(
            name: "GeneratedContainers",
            dependencies: [.product(name: "DependencyKit", package: "DependencyKit")],
            swiftSettings: swiftSettings
        ),
        // Runs one benchmark body a given number of times, with no benchmark harness around it: counted
        // under callgrind by Benchmarks/Scripts/benchmarks-instructions.sh, timed on one and two threads by
        // Benchmarks/Scripts/benchmarks-threads.sh. It shares Graph.swift with the benchmarks through a symbolic link.
        .executableTarget(
            name: "DependencyKitProbe",
            dependencies: [
                .product(name: "AppCore", package: "DependencyKit"),
                .product(name: "DependencyKit", package: "DependencyKit"),
                "GeneratedContainers",
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "DependencyKitBenchmarks",
            dependencies: [
                .product(name: "AppCore", package: "DependencyKit"),
                .product(name: "DependencyKit", package: "DependencyKit"),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Swinject", package: "Swinject"),
                .product(name: "Dependencies", package: "swift-dependencies"),
                "GeneratedContainers",
            ],
            path: "Benchmarks/DependencyKitBenchmarks",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
