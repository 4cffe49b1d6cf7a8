import AppCore
import DependencyKit
import DependencyKitTesting
import Foundation
import Testing

// The DependencyKit side of AppCore's "Migrating from the Blog Post": the post's graph, which is
// AppCore's, declared as a container of its own: a profile screen that loads the signed-in user
// through a worker over a network store and a cache.

// snippet: blog-post-container
protocol ProfileDependency: DependencyContainer {
    func resolveHTTPService() -> any HTTPServiceType
    func resolveUsersStore() -> any UsersStore
    func resolveUsersCache() -> any UsersCacheStore
    func resolveUsersWorker() -> any UsersWorkerType
}

class CoreProfileDependency: DependencyContainer, ProfileDependency, @unchecked Sendable {
    func resolveHTTPService() -> any HTTPServiceType {
        live { HTTPService(configuration: HTTPConfiguration(baseURL: URL(string: "https://api.example.com")!)) }
    }

    func resolveUsersStore() -> any UsersStore {
        fresh { UsersNetworkStore(httpService: resolveHTTPService()) }
    }

    func resolveUsersCache() -> any UsersCacheStore {
        live { UsersFileCacheStore(directory: FileManager.default.temporaryDirectory) }
    }

    func resolveUsersWorker() -> any UsersWorkerType {
        fresh { UsersWorker(store: resolveUsersStore(), cacheStore: resolveUsersCache()) }
    }
}

let profileInjector = Injector<any ProfileDependency> { CoreProfileDependency() }

protocol HasProfileDependencies {}

extension HasProfileDependencies {
    var dependencies: any ProfileDependency { profileInjector.dependencies }
}
// end-snippet

// snippet: blog-post-consumer
struct ProfileScreenModel: HasProfileDependencies {
    func load(token: Secret) async throws -> User {
        try await dependencies.resolveUsersWorker().fetchCurrent(token: token)
    }
}
// end-snippet

// snippet: blog-post-test
final class TestProfileDependency: CoreProfileDependency, @unchecked Sendable {
    static let me = #"{"id":"u1","name":"Ada","email":"ada@example.com"}"#

    // HTTPServiceKit's test double: canned JSON by path.
    override func resolveHTTPService() -> any HTTPServiceType {
        fresh { CannedHTTPService(answers: ["/users/me": Self.me]) }
    }
    override func resolveUsersCache() -> any UsersCacheStore { fresh { InMemoryUsersCache() } }
}

@Test(.dependencies(TestProfileDependency()))
func profileLoadsTheSignedInUser() async throws {
    let user = try await ProfileScreenModel().load(token: Secret("token"))
    #expect(user.name == "Ada")
}
// end-snippet

@Suite struct BlogPostMigrationTests {
    @Test func theProductionGraphTalksToTheConfiguredServer() throws {
        let service = try #require(CoreProfileDependency().resolveHTTPService() as? HTTPService)
        #expect(service.configuration.baseURL.host == "api.example.com")
    }

    @Test(.dependencies(OfflineProfileDependency()))
    func anOverrideReachesTheScreenModel() async {
        await #expect(throws: UsersError.http(OfflineHTTPService.defaultFailure)) {
            try await ProfileScreenModel().load(token: Secret("token"))
        }
    }
}

private final class OfflineProfileDependency: CoreProfileDependency, @unchecked Sendable {
    override func resolveHTTPService() -> any HTTPServiceType { fresh { OfflineHTTPService() } }
    override func resolveUsersCache() -> any UsersCacheStore { fresh { InMemoryUsersCache() } }
}
