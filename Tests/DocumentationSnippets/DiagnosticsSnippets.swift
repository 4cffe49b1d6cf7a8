import AppCore
import DependencyKit
import DependencyKitTesting
import Foundation
import Testing

// The samples of Diagnostics.md.

// snippet: diagnostics-fresh
class VisibleDependency: CoreDependency, @unchecked Sendable {
    override func resolveUsersWorker() -> any UsersWorkerType {
        fresh { UsersWorker(store: resolveUsersStore(), cacheStore: resolveUsersCache()) }
    }
}
// end-snippet

enum DiagnosticsLaunch {
    static func checkCyclesInThisBuild() {
        // snippet: diagnostics-policy
        Diagnostics.checksCycles = true
        // end-snippet
    }
}

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

/// Worker → service → store → worker.
final class BrokenDependency: DependencyContainer, @unchecked Sendable {
    func resolveWorker() -> LoopWorker { fresh { LoopWorker(service: resolveService()) } }
    func resolveService() -> LoopService { fresh { LoopService(store: resolveStore()) } }
    func resolveStore() -> LoopStore { fresh { LoopStore(worker: resolveWorker()) } }
}

@Suite struct DiagnosticsTests {
    // snippet: diagnostics-exit-test
    @Test func brokenGraphNamesItsCycle() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Diagnostics.checksCycles = true
            _ = BrokenDependency().resolveWorker()
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("Dependency cycle: LoopWorker → LoopService → LoopStore → LoopWorker"))
    }
    // end-snippet

    @Test func aTraceDrawsTheGraphAsTextDOTAndMermaid() throws {
        // snippet: diagnostics-trace
        let dependencies = CoreDependency()
        let (_, graph) = Diagnostics.trace {
            _ = dependencies.resolveAuthenticationWorker()
            _ = dependencies.resolveUsersWorker()
        }
        print(graph.renderText())
        // end-snippet
        #expect(graph.renderText().contains("resolveUsersWorker() → UsersWorker"))

        let dotFile = FileManager.default.temporaryDirectory.appendingPathComponent("appcore-\(UUID()).dot")
        defer { try? FileManager.default.removeItem(at: dotFile) }
        // snippet: diagnostics-dot
        try graph.renderDOT(name: "AppCore").write(to: dotFile, atomically: true, encoding: .utf8)
        // dot -Tsvg appcore.dot -o appcore.svg
        // end-snippet
        #expect(try String(contentsOf: dotFile, encoding: .utf8).contains("digraph"))

        // snippet: diagnostics-mermaid
        print("```mermaid\n\(graph.renderMermaid())\n```")
        // end-snippet
    }

    @Test func aResolveBuiltInFreshIsNamedInTheTrace() {
        let (_, graph) = Diagnostics.trace { _ = VisibleDependency().resolveUsersWorker() }
        #expect(graph.renderText().contains("[fresh, VisibleDependency]"))
    }
}
