import AppCore
import Dependencies
import Foundation

// The benchmark graph with swift-dependencies. Its values are cached per key, so the leaves a
// resolve reads are the keys (the configuration and the cache directory, as `CoreDependency`'s
// leaves), and each level is built fresh over `@Dependency` reads, as `CoreDependency` builds it.

private enum HTTPConfigurationKey: DependencyKey {
    static let liveValue = HTTPConfiguration.default
}

private enum UsersCacheDirectoryKey: DependencyKey {
    static let liveValue = usersCacheDirectory
}

extension DependencyValues {
    var httpConfiguration: HTTPConfiguration {
        get { self[HTTPConfigurationKey.self] }
        set { self[HTTPConfigurationKey.self] = newValue }
    }

    var usersCacheDirectory: URL {
        get { self[UsersCacheDirectoryKey.self] }
        set { self[UsersCacheDirectoryKey.self] = newValue }
    }
}

enum SwiftDependenciesGraph {
    static func makeHTTPService() -> any HTTPServiceType {
        @Dependencies.Dependency(\.httpConfiguration) var configuration
        return HTTPService(configuration: configuration)
    }

    static func makeUsersCache() -> any UsersCacheStore {
        @Dependencies.Dependency(\.usersCacheDirectory) var directory
        return UsersFileCacheStore(directory: directory)
    }

    static func resolveGraph() -> Graph {
        Graph(
            authenticationWorker: AuthenticationWorker(
                service: AuthenticationNetworkService(httpService: makeHTTPService())
            ),
            usersWorker: UsersWorker(
                store: UsersNetworkStore(httpService: makeHTTPService()),
                cacheStore: makeUsersCache()
            )
        )
    }
}
