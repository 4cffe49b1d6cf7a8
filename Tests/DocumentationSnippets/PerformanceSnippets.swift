import AppCore
import DependencyKitTesting
import Testing

// The sample of Performance.md: the graph every benchmark builds, read through HasDependencies.

/// Both workers of AppCore's graph, fresh.
struct Graph {
    let authenticationWorker: any AuthenticationWorkerType
    let usersWorker: any UsersWorkerType
}

// snippet: performance-consumer
struct GraphConsumer: HasDependencies {
    func resolveGraph() -> Graph {
        Graph(
            authenticationWorker: dependencies.resolveAuthenticationWorker(),
            usersWorker: dependencies.resolveUsersWorker()
        )
    }
}
// end-snippet

@Suite struct PerformanceTests {
    @Test(.dependencies(OfflineDependency()))
    func theBenchmarkedGraphComesFromTheContainerInEffect() async {
        let graph = GraphConsumer().resolveGraph()
        await #expect(throws: UsersError.http(OfflineHTTPService.defaultFailure)) {
            try await graph.usersWorker.fetchAll(token: Secret("t"))
        }
    }
}
