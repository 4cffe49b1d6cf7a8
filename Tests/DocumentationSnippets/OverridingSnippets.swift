import AppCore
import DependencyKit
import DependencyKitTesting
import Foundation
import Testing

// The samples of OverridingAndSubclassing.md.

// snippet: overriding-subclass
final class StagingDependency: CoreDependency, @unchecked Sendable {
    override func resolveHTTPConfiguration() -> HTTPConfiguration {
        HTTPConfiguration(baseURL: URL(string: "https://staging.example.com")!)
    }
}
// end-snippet

// snippet: overriding-super
final class ImpatientDependency: CoreDependency, @unchecked Sendable {
    override func resolveHTTPConfiguration() -> HTTPConfiguration {
        var configuration = super.resolveHTTPConfiguration()
        configuration.timeout = 5
        return configuration
    }
}
// end-snippet

// snippet: overriding-direct-conformance
final class CannedNetworkDependency: DependencyContainer, Dependency, @unchecked Sendable {
    let http = CannedHTTPService()

    func resolveHTTPService() -> any HTTPServiceType { http }
    func resolveUsersCache() -> any UsersCacheStore { InMemoryUsersCache() }
}
// end-snippet

// snippet: overriding-default-builder
final class ShortTimeoutDependency: DependencyContainer, Dependency, @unchecked Sendable {
    func resolveHTTPConfiguration() -> HTTPConfiguration {
        var configuration = defaultHTTPConfiguration()
        configuration.timeout = 1
        return configuration
    }
}
// end-snippet

// snippet: overriding-pitfall
class DefaultsOnlyDependency: DependencyContainer, Dependency, @unchecked Sendable {}

final class IgnoredOverrideDependency: DefaultsOnlyDependency, @unchecked Sendable {
    // Not an override: the superclass has no such method, only the protocol extension does.
    func resolveHTTPService() -> any HTTPServiceType { OfflineHTTPService() }
}
// end-snippet

@Suite struct OverridingTests {
    @Test(.dependencies(StagingDependency()))
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

    @Test func aSubclassCannotReplaceAResolveItsSuperclassGotFromTheDefaults() {
        let container: any Dependency = IgnoredOverrideDependency()
        #expect(container.resolveHTTPService() is HTTPService)
        #expect(IgnoredOverrideDependency().resolveHTTPService() is OfflineHTTPService)
    }
}
