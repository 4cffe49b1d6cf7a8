import AppCore
import Benchmark
import DependencyKit
import Foundation
import GeneratedContainers
import Swinject

/// Set to run every benchmark for one iteration only: the CI smoke pass, which checks that each
/// one executes and builds the right graph, and judges no timing.
let isSmokeRun = ProcessInfo.processInfo.environment["DEPENDENCYKIT_BENCHMARK_SMOKE"] != nil

func configuration(scaling: BenchmarkScalingFactor = .kilo) -> Benchmark.Configuration {
    if isSmokeRun {
        return .init(
            metrics: [.wallClock, .mallocCountTotal],
            timeUnits: .nanoseconds,
            warmupIterations: 0,
            scalingFactor: .one,
            maxDuration: .milliseconds(100),
            maxIterations: 1
        )
    }
    return .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 3,
        scalingFactor: scaling,
        maxDuration: .seconds(3),
        maxIterations: 1_000
    )
}

/// Fails the benchmark unless `graph` holds the default AppCore workers.
func check(_ graph: Graph, _ benchmark: Benchmark) {
    if !(graph.authenticationWorker is AuthenticationWorker) || !(graph.usersWorker is UsersWorker) {
        benchmark.error("\(benchmark.name) built the wrong graph")
    }
}

func check(_ worker: any BenchmarkWorker, id: Int, _ benchmark: Benchmark) {
    if worker.service.id != id {
        benchmark.error("\(benchmark.name) resolved service \(worker.service.id), expected \(id)")
    }
}

struct Width10Consumer: HasWidth10Dependencies {}
struct Width1000Consumer: HasWidth1000Dependencies {}

let benchmarks: @Sendable () -> Void = {
    let directory = usersCacheDirectory
    let global = BenchmarkDependency(usersCacheDirectory: directory)
    let consumer = GraphConsumer()
    let installGlobal: @Sendable () async throws -> Void = { DependencyInjector.dependencies = global }

    // MARK: - The full graph, one thread

    Benchmark("Graph: hand-written", configuration: configuration()) { benchmark in
        var graph = HandWritten.makeGraph(usersCacheDirectory: directory)
        for _ in benchmark.scaledIterations {
            graph = HandWritten.makeGraph(usersCacheDirectory: directory)
            blackHole(graph)
        }
        check(graph, benchmark)
    }

    Benchmark("Graph: HasDependencies, global container", configuration: configuration()) { benchmark in
        var graph = consumer.resolveGraph()
        for _ in benchmark.scaledIterations {
            graph = consumer.resolveGraph()
            blackHole(graph)
        }
        check(graph, benchmark)
    } setup: {
        try await installGlobal()
    }

    Benchmark("Graph: HasDependencies, scoped container", configuration: configuration()) { benchmark in
        let scoped = BenchmarkDependency(usersCacheDirectory: directory)
        withDependencies(scoped) {
            var graph = consumer.resolveGraph()
            for _ in benchmark.scaledIterations {
                graph = consumer.resolveGraph()
                blackHole(graph)
            }
            check(graph, benchmark)
        }
    } setup: {
        try await installGlobal()
    }

    Benchmark("Graph: HasDependencies, shared HTTP service", configuration: configuration()) { benchmark in
        var graph = consumer.resolveGraph()
        for _ in benchmark.scaledIterations {
            graph = consumer.resolveGraph()
            blackHole(graph)
        }
        check(graph, benchmark)
    } setup: {
        DependencyInjector.dependencies = SharedHTTPBenchmarkDependency(usersCacheDirectory: directory)
    }

    Benchmark("Graph: HasDependencies, HTTP service stored in a let", configuration: configuration()) { benchmark in
        var graph = consumer.resolveGraph()
        for _ in benchmark.scaledIterations {
            graph = consumer.resolveGraph()
            blackHole(graph)
        }
        check(graph, benchmark)
    } setup: {
        DependencyInjector.dependencies = StoredHTTPBenchmarkDependency(usersCacheDirectory: directory)
    }

    Benchmark("Graph: app container through dependencies(as:)", configuration: configuration()) { benchmark in
        let consumer = AppGraphConsumer()
        var graph = consumer.resolveGraph()
        for _ in benchmark.scaledIterations {
            graph = consumer.resolveGraph()
            blackHole(graph)
        }
        check(graph, benchmark)
    } setup: {
        DependencyInjector.dependencies = BenchmarkAppDependency(usersCacheDirectory: directory)
    }

    Benchmark("Graph: Swinject, graph scope", configuration: configuration()) { benchmark in
        let container = SwinjectGraph.makeContainer(usersCacheDirectory: directory)
        var graph = SwinjectGraph.resolveGraph(container)
        for _ in benchmark.scaledIterations {
            graph = SwinjectGraph.resolveGraph(container)
            blackHole(graph)
        }
        check(graph, benchmark)
    }

    Benchmark("Graph: Swinject, container-scoped HTTP service", configuration: configuration()) { benchmark in
        let container = SwinjectGraph.makeContainer(usersCacheDirectory: directory, sharedHTTPService: true)
        var graph = SwinjectGraph.resolveGraph(container)
        for _ in benchmark.scaledIterations {
            graph = SwinjectGraph.resolveGraph(container)
            blackHole(graph)
        }
        check(graph, benchmark)
    }

    Benchmark("Graph: Swinject, synchronize()", configuration: configuration()) { benchmark in
        let resolver = SwinjectGraph.makeContainer(usersCacheDirectory: directory).synchronize()
        var graph = SwinjectGraph.resolveGraph(resolver)
        for _ in benchmark.scaledIterations {
            graph = SwinjectGraph.resolveGraph(resolver)
            blackHole(graph)
        }
        check(graph, benchmark)
    }

    Benchmark("Graph: swift-dependencies, @Dependency", configuration: configuration()) { benchmark in
        var graph = SwiftDependenciesGraph.resolveGraph()
        for _ in benchmark.scaledIterations {
            graph = SwiftDependenciesGraph.resolveGraph()
            blackHole(graph)
        }
        check(graph, benchmark)
    }

    // MARK: - One resolve: a fresh HTTP service against a shared one

    Benchmark("Resolve HTTP service: fresh", configuration: configuration()) { benchmark in
        // Through `identity` so that the optimiser cannot see the dynamic type and devirtualise the call.
        let container: any Dependency = identity(BenchmarkDependency(usersCacheDirectory: directory))
        for _ in benchmark.scaledIterations {
            blackHole(container.resolveHTTPService())
        }
    }

    Benchmark("Resolve HTTP service: shared { }", configuration: configuration()) { benchmark in
        let container: any Dependency = identity(SharedHTTPBenchmarkDependency(usersCacheDirectory: directory))
        for _ in benchmark.scaledIterations {
            blackHole(container.resolveHTTPService())
        }
    }

    // MARK: - Reading the container alone

    Benchmark("Read dependencies: global container", configuration: configuration()) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(ObjectIdentifier(consumer.dependencies))
        }
        if ObjectIdentifier(consumer.dependencies) != ObjectIdentifier(global) {
            benchmark.error("read the wrong container")
        }
    } setup: {
        try await installGlobal()
    }

    Benchmark("Read dependencies: scoped container", configuration: configuration()) { benchmark in
        let scoped = BenchmarkDependency(usersCacheDirectory: directory)
        withDependencies(scoped) {
            for _ in benchmark.scaledIterations {
                blackHole(ObjectIdentifier(consumer.dependencies))
            }
            if ObjectIdentifier(consumer.dependencies) != ObjectIdentifier(scoped) {
                benchmark.error("read the wrong container")
            }
        }
    } setup: {
        try await installGlobal()
    }

    // MARK: - Two threads at once (time per resolve on each thread)

    Benchmark("Two threads: hand-written graph", configuration: configuration(scaling: .mega)) { benchmark in
        let iterations = benchmark.scaledIterations
        onTwoThreads {
            for _ in iterations {
                blackHole(HandWritten.makeGraph(usersCacheDirectory: directory))
            }
        }
    }

    Benchmark("Two threads: HasDependencies graph", configuration: configuration(scaling: .mega)) { benchmark in
        let iterations = benchmark.scaledIterations
        onTwoThreads {
            for _ in iterations {
                blackHole(consumer.resolveGraph())
            }
        }
        check(consumer.resolveGraph(), benchmark)
    } setup: {
        try await installGlobal()
    }

    // MARK: - Container width: 10 resolve methods against 1,000

    Benchmark("Width: hand-written worker", configuration: configuration()) { benchmark in
        var worker: any BenchmarkWorker = BenchmarkWorkerImpl(service: BenchmarkServiceImpl(id: 4))
        for _ in benchmark.scaledIterations {
            worker = BenchmarkWorkerImpl(service: BenchmarkServiceImpl(id: 4))
            blackHole(worker)
        }
        check(worker, id: 4, benchmark)
    }

    Benchmark("Width: container with 10 resolves", configuration: configuration()) { benchmark in
        let consumer = Width10Consumer()
        var worker = consumer.dependencies.resolveWorker0004()
        for _ in benchmark.scaledIterations {
            worker = consumer.dependencies.resolveWorker0004()
            blackHole(worker)
        }
        check(worker, id: 4, benchmark)
    }

    Benchmark("Width: container with 1,000 resolves", configuration: configuration()) { benchmark in
        let consumer = Width1000Consumer()
        var worker = consumer.dependencies.resolveWorker0499()
        for _ in benchmark.scaledIterations {
            worker = consumer.dependencies.resolveWorker0499()
            blackHole(worker)
        }
        check(worker, id: 499, benchmark)
    }
}
