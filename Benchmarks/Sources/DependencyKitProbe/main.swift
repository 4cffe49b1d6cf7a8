import AppCore
import DependencyKit
import Foundation
import GeneratedContainers

// A small release executable that runs one benchmark body a given number of times, for counting
// instructions under callgrind (Benchmarks/Scripts/benchmarks-instructions.sh) and for timing on one and two
// threads (Benchmarks/Scripts/benchmarks-threads.sh). Instruction counts do not move with the machine's load;
// timings do, which is why both scripts compare ratios taken in one run.
//
// Usage:
//   DependencyKitProbe run <benchmark> <iterations>      runs the body, prints nothing
//   DependencyKitProbe time <benchmark> <iterations> <threads>
//                                                         prints nanoseconds per iteration per thread
//   DependencyKitProbe list                               prints the benchmark names

/// Keeps `value` alive and opaque to the optimiser, as package-benchmark's `blackHole` does.
@_optimize(none)
func blackHole(_ value: some Any) {}

/// Hides `value` from the optimiser, so it cannot see a dynamic type through it.
@_optimize(none)
func identity<T>(_ value: T) -> T { value }

struct Width10Consumer: HasWidth10Dependencies {}
struct Width1000Consumer: HasWidth1000Dependencies {}

/// Fails unless `graph` holds the default AppCore workers.
func check(_ graph: Graph, _ name: String) {
    if !(graph.authenticationWorker is AuthenticationWorker) || !(graph.usersWorker is UsersWorker) {
        fatalError("\(name) built the wrong graph")
    }
}

func check(_ worker: any BenchmarkWorker, id: Int, _ name: String) {
    if worker.service.id != id {
        fatalError("\(name) resolved service \(worker.service.id), expected \(id)")
    }
}

/// Runs `operation` in a task and blocks this thread until it is done.
func waitForTask(_ operation: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await operation()
        done.signal()
    }
    done.wait()
}

let directory = usersCacheDirectory
let consumer = GraphConsumer()

/// One benchmark: how to prepare the process, and a body that runs `iterations` times.
struct Probe: Sendable {
    let name: String
    let setUp: @Sendable () -> Void
    let body: @Sendable (_ iterations: Int) -> Void
}

let probes: [Probe] =
    [
        Probe(
            name: "graph.hand-written", setUp: {},
            body: { iterations in
                for _ in 0..<iterations { blackHole(HandWritten.makeGraph(usersCacheDirectory: directory)) }
                check(HandWritten.makeGraph(usersCacheDirectory: directory), "graph.hand-written")
            }),
        Probe(
            name: "graph.global",
            setUp: { DependencyInjector.dependencies = BenchmarkDependency(usersCacheDirectory: directory) },
            body: { iterations in
                for _ in 0..<iterations { blackHole(consumer.resolveGraph()) }
                check(consumer.resolveGraph(), "graph.global")
            }),
        Probe(
            name: "graph.scoped",
            setUp: { DependencyInjector.dependencies = BenchmarkDependency(usersCacheDirectory: directory) },
            body: { iterations in
                withDependencies(BenchmarkDependency(usersCacheDirectory: directory)) {
                    for _ in 0..<iterations { blackHole(consumer.resolveGraph()) }
                    check(consumer.resolveGraph(), "graph.scoped")
                }
            }),
        Probe(
            name: "graph.scoped-async",
            setUp: { DependencyInjector.dependencies = BenchmarkDependency(usersCacheDirectory: directory) },
            body: { iterations in
                // An asynchronous scope, as the testing trait and a per-request server scope make: reads go
                // through the task-local.
                waitForTask {
                    await withDependencies(BenchmarkDependency(usersCacheDirectory: directory)) { () async in
                        for _ in 0..<iterations { blackHole(consumer.resolveGraph()) }
                        check(consumer.resolveGraph(), "graph.scoped-async")
                    }
                }
            }),
        Probe(
            name: "graph.stored-http",
            setUp: {
                DependencyInjector.dependencies = StoredHTTPBenchmarkDependency(usersCacheDirectory: directory)
            },
            body: { iterations in
                for _ in 0..<iterations { blackHole(consumer.resolveGraph()) }
                check(consumer.resolveGraph(), "graph.stored-http")
            }),
        Probe(
            name: "graph.shared-http",
            setUp: {
                DependencyInjector.dependencies = SharedHTTPBenchmarkDependency(usersCacheDirectory: directory)
            },
            body: { iterations in
                for _ in 0..<iterations { blackHole(consumer.resolveGraph()) }
                check(consumer.resolveGraph(), "graph.shared-http")
            }),
        Probe(
            name: "graph.app-container",
            setUp: { DependencyInjector.dependencies = BenchmarkAppDependency(usersCacheDirectory: directory) },
            body: { iterations in
                // An app's own container protocol, read through `dependencies(as:)` as the
                // app-dependencies recipe does.
                let consumer = AppGraphConsumer()
                for _ in 0..<iterations { blackHole(consumer.resolveGraph()) }
                check(consumer.resolveGraph(), "graph.app-container")
            }),
        Probe(
            name: "read.global",
            setUp: { DependencyInjector.dependencies = BenchmarkDependency(usersCacheDirectory: directory) },
            body: { iterations in
                for _ in 0..<iterations { blackHole(ObjectIdentifier(consumer.dependencies)) }
            }),
        Probe(
            name: "read.scoped",
            setUp: { DependencyInjector.dependencies = BenchmarkDependency(usersCacheDirectory: directory) },
            body: { iterations in
                withDependencies(BenchmarkDependency(usersCacheDirectory: directory)) {
                    for _ in 0..<iterations { blackHole(ObjectIdentifier(consumer.dependencies)) }
                }
            }),
        Probe(
            name: "read.scoped-async",
            setUp: { DependencyInjector.dependencies = BenchmarkDependency(usersCacheDirectory: directory) },
            body: { iterations in
                waitForTask {
                    await withDependencies(BenchmarkDependency(usersCacheDirectory: directory)) { () async in
                        for _ in 0..<iterations { blackHole(ObjectIdentifier(consumer.dependencies)) }
                    }
                }
            }),
        Probe(
            name: "width.hand-written", setUp: {},
            body: { iterations in
                for _ in 0..<iterations {
                    blackHole(BenchmarkWorkerImpl(service: BenchmarkServiceImpl(id: 4)) as any BenchmarkWorker)
                }
            }),
        Probe(
            name: "width.10", setUp: { _ = width10Injector.dependencies },
            body: { iterations in
                let consumer = Width10Consumer()
                for _ in 0..<iterations { blackHole(consumer.dependencies.resolveWorker0004()) }
                check(consumer.dependencies.resolveWorker0004(), id: 4, "width.10")
            }),
        Probe(
            name: "width.1000", setUp: { _ = width1000Injector.dependencies },
            body: { iterations in
                let consumer = Width1000Consumer()
                for _ in 0..<iterations { blackHole(consumer.dependencies.resolveWorker0499()) }
                check(consumer.dependencies.resolveWorker0499(), id: 499, "width.1000")
            }),
    ] + lifetimeProbes + asyncProbes + scopeProbes + overrideProbes + overrideSetUpProbes + overrideLookupProbes
    + nestedRelativeProbes + requestScopeProbes + requestValueProbes

func probe(named name: String) -> Probe {
    guard let probe = probes.first(where: { $0.name == name }) else {
        FileHandle.standardError.write(Data("unknown benchmark \(name); try `list`\n".utf8))
        exit(2)
    }
    return probe
}

func nanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Runs `body` on `count` threads at once, released together, and returns when all are done.
func onThreads(_ count: Int, _ body: @escaping @Sendable () -> Void) {
    let group = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for _ in 0..<count {
        group.enter()
        Thread {
            start.wait()
            body()
            group.leave()
        }.start()
    }
    for _ in 0..<count { start.signal() }
    group.wait()
}

let arguments = CommandLine.arguments
switch (arguments.count > 1 ? arguments[1] : "", arguments.count) {
case ("list", _):
    for probe in probes { print(probe.name) }
case ("run", 4):
    let probe = probe(named: arguments[2])
    guard let iterations = Int(arguments[3]), iterations >= 0 else { exit(2) }
    probe.setUp()
    probe.body(iterations)
case ("time", 5):
    let probe = probe(named: arguments[2])
    guard let iterations = Int(arguments[3]), let threads = Int(arguments[4]), iterations > 0, threads >= 1 else {
        exit(2)
    }
    probe.setUp()
    probe.body(iterations / 10)  // warm up
    let start = nanoseconds()
    if threads == 1 {
        probe.body(iterations)
    } else {
        onThreads(threads) { probe.body(iterations) }
    }
    let elapsed = nanoseconds() - start
    print(String(format: "%.2f", Double(elapsed) / Double(iterations)))
default:
    FileHandle.standardError.write(
        Data("usage: DependencyKitProbe list | run <benchmark> <n> | time <benchmark> <n> <threads>\n".utf8)
    )
    exit(2)
}
