import Testing

@testable import DependencyKit

// Small graphs for the diagnostics tests. Type names are part of the expected strings.

protocol Barista: Sendable {}
struct HumanBarista: Barista {
    let grinder: Grinder
}
final class Grinder: Sendable {}
struct Roaster: Sendable {
    let grinder: Grinder
}
struct Cafe: Sendable {
    let barista: any Barista
    let roaster: Roaster
}

/// Builds a café: two fresh branches that share one grinder.
final class Kitchen: DependencyContainer, @unchecked Sendable {
    func resolveCafe() -> Cafe { fresh { Cafe(barista: resolveBarista(), roaster: resolveRoaster()) } }
    func resolveBarista() -> any Barista { fresh { HumanBarista(grinder: resolveGrinder()) } }
    func resolveRoaster() -> Roaster { fresh { Roaster(grinder: resolveGrinder()) } }
    func resolveGrinder() -> Grinder { shared { Grinder() } }
}

/// Makes sure cycle checking is on, whatever the build's default; setting it is idempotent, so
/// tests running in parallel may all call this.
func requireCycleChecking() {
    Diagnostics.checksCycles = true
}

/// The standard error of an exit test, as text.
func standardError(of result: ExitTest.Result?) -> String {
    result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
}

// MARK: - Cycles

final class LoopWorker: Sendable {
    let service: LoopService
    init(service: LoopService) { self.service = service }
}
final class LoopService: Sendable {
    let store: LoopStore
    init(store: LoopStore) { self.store = store }
}
final class LoopStore: Sendable {
    let worker: LoopWorker
    init(worker: LoopWorker) { self.worker = worker }
}

/// Worker → service → store → worker, through fresh resolves.
final class LoopingContainer: DependencyContainer, @unchecked Sendable {
    func resolveWorker() -> LoopWorker { fresh { LoopWorker(service: resolveService()) } }
    func resolveService() -> LoopService { fresh { LoopService(store: resolveStore()) } }
    func resolveStore() -> LoopStore { fresh { LoopStore(worker: resolveWorker()) } }
}

/// A resolve that needs itself.
final class SelfLoop: Sendable {
    let inner: SelfLoop
    init(inner: SelfLoop) { self.inner = inner }
}

final class SelfLoopingContainer: DependencyContainer, @unchecked Sendable {
    func resolveLoop() -> SelfLoop { fresh { SelfLoop(inner: resolveLoop()) } }
}

/// A small stand-in for a tagged registry: resolves throw, so a cycle is thrown.
protocol Plugin: Sendable {}
struct LeafPlugin: Plugin {}
struct WrappingPlugin: Plugin {
    let inner: any Plugin
}

enum PluginError: Error, Equatable {
    case cycle(Diagnostics.CycleError)
    case missing(String)
}

final class PluginHost: DependencyContainer, @unchecked Sendable {
    /// `a` wraps `b`, `b` wraps `a` (a cycle); `c` wraps the fresh `resolveHelper()`, which
    /// asks for `c` again (a cycle through a fresh resolve); `leaf` is a leaf.
    func resolvePlugin(_ tag: String) throws(PluginError) -> any Plugin {
        try withResolution(
            "resolvePlugin(\(tag))",
            of: (any Plugin).self,
            lifetime: .registry,
            container: self,
            cycleError: PluginError.cycle
        ) { () throws(PluginError) -> any Plugin in
            switch tag {
            case "a": return WrappingPlugin(inner: try resolvePlugin("b"))
            case "b": return WrappingPlugin(inner: try resolvePlugin("a"))
            case "c": return WrappingPlugin(inner: try resolveHelper())
            case "leaf": return LeafPlugin()
            default: throw .missing(tag)
            }
        }
    }

    func resolveHelper() throws(PluginError) -> any Plugin {
        do {
            return try fresh { () throws -> any Plugin in try resolvePlugin("c") }
        } catch let error as PluginError {
            throw error
        } catch {
            preconditionFailure("resolvePlugin throws only PluginError, not \(error)")
        }
    }
}

// MARK: - Cycles across child tasks of a scoped container

final class Echo: Sendable {
    let reply: Reply?
    init(reply: Reply?) { self.reply = reply }
}
final class Reply: Sendable {
    let echo: Echo?
    init(echo: Echo?) { self.echo = echo }
}

/// A container kind of its own, so a test can scope one with `withDependencies`.
protocol EchoDependency: DependencyContainer {
    func resolveEcho() async -> Echo
    func resolveReply() async -> Reply
    func resolveCheckedEcho() async throws -> Echo
    func resolveCheckedReply() async throws -> Reply
}

extension EchoDependency {
    func resolveEcho() async -> Echo { Echo(reply: nil) }
    func resolveReply() async -> Reply { Reply(echo: nil) }
    func resolveCheckedEcho() async throws -> Echo { Echo(reply: nil) }
    func resolveCheckedReply() async throws -> Reply { Reply(echo: nil) }
}

final class EchoCore: DependencyContainer, EchoDependency, @unchecked Sendable {}

let echoInjector = Injector<any EchoDependency> { EchoCore() }

/// Lets a throwing resolution throw the cycle as it is.
func asAnyError(_ cycle: Diagnostics.CycleError) -> any Error { cycle }

/// Each resolve asks for the other from a child task, through the injector — so only the
/// scoped container loops, and only if the resolution chain follows the child tasks.
final class LoopedEcho: DependencyContainer, EchoDependency, @unchecked Sendable {
    func resolveEcho() async -> Echo {
        await fresh {
            async let reply = echoInjector.dependencies.resolveReply()
            return Echo(reply: await reply)
        }
    }

    func resolveReply() async -> Reply {
        await fresh {
            async let echo = echoInjector.dependencies.resolveEcho()
            return Reply(echo: await echo)
        }
    }

    func resolveCheckedEcho() async throws -> Echo {
        try await withResolution(
            #function,
            of: Echo.self,
            lifetime: .registry,
            container: self,
            cycleError: asAnyError
        ) { () async throws -> Echo in
            async let reply = echoInjector.dependencies.resolveCheckedReply()
            return Echo(reply: try await reply)
        }
    }

    func resolveCheckedReply() async throws -> Reply {
        try await withResolution(
            #function,
            of: Reply.self,
            lifetime: .registry,
            container: self,
            cycleError: asAnyError
        ) { () async throws -> Reply in
            let echo = try await Task { try await echoInjector.dependencies.resolveCheckedEcho() }.value
            return Reply(echo: echo)
        }
    }
}

// MARK: - Shared instances and factories

/// Two shared instances that need each other.
final class SharedLoopContainer: DependencyContainer, @unchecked Sendable {
    func resolveSession() -> LoopWorker { shared { LoopWorker(service: resolveSessionStore()) } }
    func resolveSessionStore() -> LoopService { shared { LoopService(store: LoopStore(worker: resolveSession())) } }
}

/// A report is made by a factory from a formatter; making the formatter needs a sample report.
final class Report: FactoryModule, Sendable {
    let formatter: Formatter
    init(dependency: Formatter, payload: Void) { formatter = dependency }
}

final class Formatter: Sendable {
    let sample: Report
    init(sample: Report) { self.sample = sample }
}

final class ReportingContainer: DependencyContainer, @unchecked Sendable {
    func resolveReportFactory() -> Report.Factory {
        Report.Factory(dependency: self.resolveFormatter())
    }

    func resolveFormatter() -> Formatter {
        fresh { Formatter(sample: resolveReportFactory().create()) }
    }
}

/// A registry whose `a` plugin wraps its `b` plugin, which wraps the `a` plugin.
func loopingPluginRegistry() -> DependencyRegistry {
    let registry = DependencyRegistry()
    registry.register((any Plugin).self, tag: "a") {
        WrappingPlugin(inner: try registry.resolve((any Plugin).self, tag: "b"))
    }
    registry.register((any Plugin).self, tag: "b") {
        WrappingPlugin(inner: try registry.resolve((any Plugin).self, tag: "a"))
    }
    return registry
}
