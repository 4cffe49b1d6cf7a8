import AppCore
import DependencyKit
import Testing

/// A double that conforms to `Dependency` directly and implements one method.
private final class OnlyHTTPDouble: DependencyContainer, Dependency, PartialContainer, @unchecked Sendable {
    let http: StubHTTPService
    init(http: StubHTTPService) {
        self.http = http
        super.init()
    }
    func resolveHTTPService() -> any HTTPServiceType { http }
}

/// A double that replaces the cache and decorates the default users store.
private final class CacheDouble: DependencyContainer, Dependency, PartialContainer, @unchecked Sendable {
    let http = StubHTTPService(marker: "cache-double")
    let cache = InMemoryUsersCache()
    func resolveHTTPService() -> any HTTPServiceType { http }
    func resolveUsersCache() -> any UsersCacheStore { cache }
}

struct DirectConformanceTests {
    @Test func singleResolveCascadesThroughTheDefaults() async throws {
        let stub = StubHTTPService(marker: "direct")
        let double = OnlyHTTPDouble(http: stub)
        #expect(double.resolveAuthenticationService() is AuthenticationNetworkService)
        #expect(double.resolveUsersStore() is UsersNetworkStore)

        _ = try await double.resolveAuthenticationWorker().signUp(
            name: "Ada", email: "ada@example.com", password: Secret("long enough"))
        _ = try await double.resolveUsersStore().fetchAll(token: Secret("t"))
        #expect(stub.calls.map(\.path) == ["/auth/signup", "/users"])
    }

    @Test func cacheOverrideReachesTheUsersWorker() async throws {
        let double = CacheDouble()
        let user = try await double.resolveUsersWorker().fetchCurrent(token: Secret("t"))
        #expect(await double.cache.loadCurrent() == user)
    }

    @Test func defaultBuildersLetAnOverrideDecorateTheDefault() {
        let double = OnlyHTTPDouble(http: StubHTTPService(marker: "d"))
        // The default builder is reachable even where a method overrides it, like `super`.
        #expect(double.makeHTTPService() is HTTPService)
        #expect(double.resolveHTTPService() is StubHTTPService)
    }
}
