import Testing

@testable import DependencyKit

private struct MissingConfiguration: Error, CustomStringConvertible {
    let key: String
    var description: String { "missing configuration \(key)" }
}

private final class StartUpCore: DependencyContainer, @unchecked Sendable {
    let stores = Counter()

    func resolveStore() -> Store { shared { Store(serial: stores.increment()) } }
    func resolveWorker() -> Worker { fresh { Worker(store: resolveStore()) } }
    func resolveDatabase() throws -> Store { try fresh { throw MissingConfiguration(key: "DATABASE_URL") } }
    func resolveQueue() throws -> Store { try fresh { throw MissingConfiguration(key: "QUEUE_URL") } }
    func resolveAsyncStore() async throws -> Store {
        try await fresh { () async throws -> Store in
            await Task.yield()
            return Store(serial: 99)
        }
    }

    static var everyResolve: [(StartUpCore) throws -> Void] {
        [{ _ = $0.resolveWorker() }, { _ = try $0.resolveDatabase() }, { _ = try $0.resolveQueue() }]
    }
}

struct EagerStartTests {
    @Test func warmUpCreatesSharedInstancesNow() throws {
        let container = StartUpCore()
        try container.warmUp([{ _ = $0.resolveStore() }])
        #expect(container.stores.count == 1)
        _ = container.resolveWorker()
        #expect(container.stores.count == 1)
    }

    @Test func warmUpReportsEveryFailureTogether() {
        let container = StartUpCore()
        do {
            try container.warmUp(StartUpCore.everyResolve)
            Issue.record("warmUp should have thrown")
        } catch {
            #expect(error.report.failures.map(\.name) == ["resolveDatabase()", "resolveQueue()"])
            #expect(error.report.entries.count == 3)
            #expect(error.description.contains("missing configuration DATABASE_URL"))
            #expect(error.description.contains("missing configuration QUEUE_URL"))
            // The resolve after the failures still ran.
            #expect(container.stores.count == 1)
        }
    }

    @Test func validateDrawsTheGraphOfEveryResolve() {
        let report = Diagnostics.validate(StartUpCore(), StartUpCore.everyResolve)
        #expect(!report.succeeded)
        #expect(report.graph.roots.map(\.name) == ["resolveWorker()", "resolveDatabase()", "resolveQueue()"])
        #expect(report.graph.children(of: report.graph.roots[0]).map(\.lifetime) == [.shared])
        #expect(report.description.contains("2 of 3 resolves failed"))
    }

    @Test func validateReportsAMissingRegistrationAndGoesOn() {
        let registry = DependencyRegistry()
        let container = StartUpCore()
        let report = Diagnostics.validate(
            container, [{ _ in _ = try registry.resolve(Store.self) }, { _ = $0.resolveStore() }])
        #expect(report.failures.map(\.index) == [0])
        #expect(report.failures.first?.error as? DependencyRegistry.Error == .notRegistered(type: "Store", tag: nil))
        #expect(report.entries[1].error == nil)
        #expect(container.stores.count == 1)
    }

    @Test func asyncWarmUpRunsAsyncResolves() async throws {
        let container = StartUpCore()
        let report = try await container.warmUp([{ _ = try await $0.resolveAsyncStore() }])
        #expect(report.graph.roots.map(\.name) == ["resolveAsyncStore()"])
    }
}
