import AppCore
import Foundation
import Swinject

/// The benchmark graph registered in Swinject, node for node as `CoreDependency` builds it.
enum SwinjectGraph {
    /// A container with every node registered; `sharedHTTPService` puts the HTTP service in
    /// Swinject's `.container` scope (one instance per container), the rest stay in the default
    /// `.graph` scope.
    static func makeContainer(usersCacheDirectory: URL, sharedHTTPService: Bool = false) -> Container {
        let container = Container()
        container.register(HTTPConfiguration.self) { _ in .default }
        let http = container.register((any HTTPServiceType).self) { resolver in
            HTTPService(configuration: resolver.resolve(HTTPConfiguration.self)!)
        }
        if sharedHTTPService {
            http.inObjectScope(.container)
        }
        container.register((any AuthenticationService).self) { resolver in
            AuthenticationNetworkService(httpService: resolver.resolve((any HTTPServiceType).self)!)
        }
        container.register((any AuthenticationWorkerType).self) { resolver in
            AuthenticationWorker(service: resolver.resolve((any AuthenticationService).self)!)
        }
        container.register((any UsersStore).self) { resolver in
            UsersNetworkStore(httpService: resolver.resolve((any HTTPServiceType).self)!)
        }
        container.register(URL.self, name: "usersCacheDirectory") { _ in usersCacheDirectory }
        container.register((any UsersCacheStore).self) { resolver in
            UsersFileCacheStore(directory: resolver.resolve(URL.self, name: "usersCacheDirectory")!)
        }
        container.register((any UsersWorkerType).self) { resolver in
            UsersWorker(
                store: resolver.resolve((any UsersStore).self)!,
                cacheStore: resolver.resolve((any UsersCacheStore).self)!
            )
        }
        return container
    }

    @inline(__always)
    static func resolveGraph(_ resolver: any Resolver) -> Graph {
        Graph(
            authenticationWorker: resolver.resolve((any AuthenticationWorkerType).self)!,
            usersWorker: resolver.resolve((any UsersWorkerType).self)!
        )
    }
}
