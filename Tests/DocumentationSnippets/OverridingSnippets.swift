import AppCore
import DependencyKit
import DependencyKitTesting
import Foundation
import Testing

// The samples of OverridingAndSubclassing.md.

// snippet: overriding-subclass
final class StagingDependency: CoreDependency, @unchecked Sendable {
    override func resolveHTTPConfiguration() -> HTTPConfiguration {
        fresh { HTTPConfiguration(baseURL: URL(string: "https://staging.example.com")!) }
    }
}
// end-snippet

// snippet: overriding-super
final class ImpatientDependency: CoreDependency, @unchecked Sendable {
    override func resolveHTTPConfiguration() -> HTTPConfiguration {
        fresh {
            var configuration = super.resolveHTTPConfiguration()
            configuration.timeout = 5
            return configuration
        }
    }
}
// end-snippet

// snippet: overriding-direct-conformance
final class CannedNetworkDependency: DependencyContainer, Dependency, PartialContainer, @unchecked Sendable {
    let http = CannedHTTPService()

    func resolveHTTPService() -> any HTTPServiceType { fresh { http } }
    func resolveUsersCacheDirectory() -> URL {
        fresh { FileManager.default.temporaryDirectory.appendingPathComponent("MyAppTests") }
    }
    func resolveUsersCache() -> any UsersCacheStore { fresh { InMemoryUsersCache() } }
}
// end-snippet

// snippet: overriding-default-builder
final class ShortTimeoutDependency: DependencyContainer, Dependency, PartialContainer, @unchecked Sendable {
    func resolveHTTPConfiguration() -> HTTPConfiguration {
        fresh {
            var configuration = makeHTTPConfiguration()
            configuration.timeout = 1
            return configuration
        }
    }
}
// end-snippet

@Suite struct OverridingTests {
    @Test(.dependencies(StagingDependency()), .allowsLiveDependencies)
    func overridingTheConfigurationReachesEveryHTTPService() throws {
        let service = try #require(DependencyInjector.dependencies.resolveHTTPService() as? HTTPService)
        #expect(service.configuration.baseURL.host == "staging.example.com")
    }

    @Test func callingSuperDecoratesTheDefault() {
        let configuration = ImpatientDependency().resolveHTTPConfiguration()
        #expect(configuration.timeout == 5)
        #expect(configuration.baseURL == HTTPConfiguration.default.baseURL)
    }

    @Test func aDirectConformanceImplementsOnlyWhatTheTestNeeds() async throws {
        let container = CannedNetworkDependency()
        let users = try await withDependencies(container) {
            try await DependencyInjector.dependencies.resolveUsersWorker().fetchAll(token: Secret("t"))
        }
        #expect(users == [CannedHTTPService.ada])
        #expect(await container.http.paths == ["/users"])
        #expect(await container.resolveUsersWorker().cachedAll() == nil)  // a fresh in-memory cache each time
    }

    @Test func aDefaultBuilderCanBeDecorated() throws {
        let service = try #require(ShortTimeoutDependency().resolveHTTPService() as? HTTPService)
        #expect(service.configuration.timeout == 1)
    }

    @Test func overridesAreTracedAsTheSubclasssOwnAndTheRestAsInherited() throws {
        let (_, graph) = Diagnostics.trace { StagingDependency().resolveUsersStore() }
        let configuration = try #require(graph.nodes.first { $0.name == "resolveHTTPConfiguration()" })
        let store = try #require(graph.nodes.first { $0.name == "resolveUsersStore()" })
        #expect(configuration.isImplementedByContainer)
        #expect(store.implementer == "CoreDependency")
        #expect(store.container == "StagingDependency")
    }
}
