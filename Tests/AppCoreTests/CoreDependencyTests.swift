import AppCore
import DependencyKit
import Foundation
import Testing

/// A subclass that overrides only the HTTP service.
private final class StubbedHTTPDependency: CoreDependency, @unchecked Sendable {
    let http: StubHTTPService
    init(http: StubHTTPService) {
        self.http = http
        super.init()
    }
    override func resolveHTTPService() -> any HTTPServiceType { http }
}

/// A subclass that overrides only where the cache lives (the blog's AppDependency).
private final class CacheDirectoryDependency: CoreDependency, @unchecked Sendable {
    let directory: URL
    let http: StubHTTPService
    init(directory: URL, http: StubHTTPService) {
        self.directory = directory
        self.http = http
        super.init()
    }
    override func resolveUsersCacheDirectory() -> URL { directory }
    override func resolveHTTPService() -> any HTTPServiceType { http }
}

struct CoreDependencyTests {
    @Test func servesTheDocumentedGraph() {
        let core = CoreDependency()
        #expect(core.resolveHTTPService() is HTTPService)
        #expect(core.resolveAuthenticationService() is AuthenticationNetworkService)
        #expect(core.resolveAuthenticationWorker() is AuthenticationWorker)
        #expect(core.resolveUsersStore() is UsersNetworkStore)
        #expect(core.resolveUsersCache() is UsersFileCacheStore)
        #expect(core.resolveUsersWorker() is UsersWorker)
        #expect(core.resolveHTTPConfiguration() == .default)
    }

    @Test func httpOverrideCascadesIntoAuthenticationWorker() async throws {
        let stub = StubHTTPService(marker: "subclass")
        let worker = StubbedHTTPDependency(http: stub).resolveAuthenticationWorker()
        let session = try await worker.logIn(email: "ada@example.com", password: Secret("correct horse"))
        #expect(session.user.name == "Ada")
        #expect(stub.calls == [.init(method: "POST", path: "/auth/login", hadToken: false)])
    }

    @Test func httpOverrideCascadesIntoUsersWorker() async throws {
        let stub = StubHTTPService(marker: "subclass")
        let directory = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = CacheDirectoryDependency(directory: directory, http: stub)
        let user = try await container.resolveUsersWorker().fetchCurrent(token: Secret("tok-1"))
        #expect(user.email == "ada@example.com")
        #expect(stub.calls == [.init(method: "GET", path: "/users/me", hadToken: true)])
    }

    @Test func cacheDirectoryOverrideCascadesIntoUsersWorker() async throws {
        let directory = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = CacheDirectoryDependency(directory: directory, http: StubHTTPService(marker: "cache"))
        let cache = try #require(container.resolveUsersCache() as? UsersFileCacheStore)
        #expect(cache.fileURL.deletingLastPathComponent().standardizedFileURL == directory.standardizedFileURL)

        _ = try await container.resolveUsersWorker().fetchAll(token: Secret("tok-1"))
        #expect(FileManager.default.fileExists(atPath: cache.fileURL.path))
        let cached = await container.resolveUsersWorker().cachedAll()
        #expect(cached?.map(\.id) == ["u1"])
    }
}

@Suite struct CoreDependencyDefaultsTests {
    @Test func theUsersCacheLivesInTheUsersOwnCachesDirectory() {
        let directory = CoreDependency().resolveUsersCacheDirectory()
        #expect(directory == UsersFileCacheStore.defaultDirectory(appName: "AppCore"))
        #expect(!directory.path.hasPrefix(FileManager.default.temporaryDirectory.path))
    }
}
