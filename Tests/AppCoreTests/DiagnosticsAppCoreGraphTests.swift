import AppCore
import DependencyKit
import Foundation
import Testing

/// AppCore's resolution graph as traced through `CoreDependency` — and the README's picture,
/// which is drawn from it and must not go stale.
struct DiagnosticsAppCoreGraphTests {
    /// What the README draws: both workers, resolved from a fresh `CoreDependency`.
    static func appCoreGraph() -> Diagnostics.ResolutionGraph {
        let dependencies = CoreDependency()
        return Diagnostics.trace {
            _ = dependencies.resolveAuthenticationWorker()
            _ = dependencies.resolveUsersWorker()
        }.graph
    }

    /// `Sources/DependencyKit/DependencyKit.docc/Resources/appcore-graph.dot`, found from this file's location in the repository.
    static let committedDOT = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("../../Sources/DependencyKit/DependencyKit.docc/Resources/appcore-graph.dot")
        .standardizedFileURL

    @Test func graphNamesEveryResolveWithWhatItReturned() {
        #expect(
            Self.appCoreGraph().renderText() == """
                resolveAuthenticationWorker() → AuthenticationWorker as AuthenticationWorkerType [fresh, CoreDependency]
                └─ resolveAuthenticationService() → AuthenticationNetworkService as AuthenticationService [fresh, CoreDependency]
                   └─ resolveHTTPService() → HTTPService as HTTPServiceType [live, CoreDependency]
                      └─ resolveHTTPConfiguration() → HTTPConfiguration [fresh, CoreDependency]
                resolveUsersWorker() → UsersWorker as UsersWorkerType [fresh, CoreDependency]
                ├─ resolveUsersStore() → UsersNetworkStore as UsersStore [fresh, CoreDependency]
                │  └─ resolveHTTPService() → HTTPService as HTTPServiceType [live, CoreDependency]
                │     └─ resolveHTTPConfiguration() → HTTPConfiguration [fresh, CoreDependency]
                └─ resolveUsersCache() → UsersFileCacheStore as UsersCacheStore [fresh, CoreDependency]
                   └─ resolveUsersCacheDirectory() → URL [live, CoreDependency]
                """
        )
    }

    @Test func overrideShowsUpInTheGraph() {
        let (_, graph) = Diagnostics.trace { OfflineDependency().resolveUsersWorker() }
        let drawn = graph.nodes.filter { $0.name == "resolveHTTPService()" }
        #expect(drawn.map(\.resolvedType) == ["StubHTTPService"])
        #expect(drawn.map(\.container) == ["OfflineDependency"])
    }

    /// Run `Scripts/render-graph.sh` after changing AppCore's graph: it rewrites the file with
    /// `DEPENDENCYKIT_RECORD_GRAPH=1` and renders the SVG.
    @Test func readmePictureMatchesTheGraph() throws {
        let dot = Self.appCoreGraph().renderDOT(name: "AppCore") + "\n"
        if ProcessInfo.processInfo.environment["DEPENDENCYKIT_RECORD_GRAPH"] == "1" {
            try dot.write(to: Self.committedDOT, atomically: true, encoding: .utf8)
        }
        let committed = try String(contentsOf: Self.committedDOT, encoding: .utf8)
        #expect(
            committed == dot,
            "Sources/DependencyKit/DependencyKit.docc/Resources/appcore-graph.dot is stale: run Scripts/render-graph.sh"
        )
    }
}

/// Replaces only the HTTP service, so the graph shows where the override lands.
private final class OfflineDependency: CoreDependency, @unchecked Sendable {
    override func resolveHTTPService() -> any HTTPServiceType {
        fresh { StubHTTPService(marker: "offline") }
    }
}
