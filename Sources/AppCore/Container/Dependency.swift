public import DependencyKit
public import Foundation

/// AppCore's container: one resolve method per dependency, each with a default.
///
/// Conform to it directly with a class to get a test double that implements only what a test
/// needs; every other resolve comes from the defaults below, and because the defaults build
/// the graph by calling `self`'s resolves, your one method cascades into everything built on
/// it. For an app, subclass ``CoreDependency`` instead.
///
/// ```swift
/// final class OfflineDependency: DependencyContainer, Dependency, @unchecked Sendable {
///     func resolveHTTPService() -> any HTTPServiceType { OfflineHTTPService() }
/// }
/// // resolveUsersWorker() now builds a UsersWorker over OfflineHTTPService.
/// ```
///
/// The blog post this pattern comes from overloads `resolveService()` and `resolveWorker()`
/// by return type; here every resolve has its own name:
///
/// | blog | AppCore |
/// | --- | --- |
/// | `resolveService() -> HTTPServiceType` | ``resolveHTTPService()`` |
/// | `resolveService() -> AuthenticationService` | ``resolveAuthenticationService()`` |
/// | `resolveWorker() -> AuthenticationWorkerType` | ``resolveAuthenticationWorker()`` |
/// | `resolveStore() -> UsersStore` | ``resolveUsersStore()`` |
/// | `resolveCache() -> UsersStore` | ``resolveUsersCache()`` |
/// | `resolveWorker() -> UsersWorkerType` | ``resolveUsersWorker()`` |
public protocol Dependency: InjectableContainer where Injector == DependencyInjector {
    /// Where the server is and how to talk to it.
    func resolveHTTPConfiguration() -> HTTPConfiguration
    /// The HTTP service every network type is built on.
    func resolveHTTPService() -> any HTTPServiceType
    /// The authentication endpoints.
    func resolveAuthenticationService() -> any AuthenticationService
    /// What screens call to sign up, log in and log out.
    func resolveAuthenticationWorker() -> any AuthenticationWorkerType
    /// Where users come from: the server.
    func resolveUsersStore() -> any UsersStore
    /// The directory the users cache lives in.
    func resolveUsersCacheDirectory() -> URL
    /// The local copy of the last users fetched.
    func resolveUsersCache() -> any UsersCacheStore
    /// What screens call to get users.
    func resolveUsersWorker() -> any UsersWorkerType
}

// The default graph, written once. Each `resolveX()` default calls `defaultX()`; the
// `defaultX()` builders are public so that an override can decorate the default, the way a
// subclass would call `super`. Each builds inside `fresh("resolveX()")`, so cycle reports and
// traced graphs name the resolve, not the builder.
extension Dependency {
    /// Returns ``defaultHTTPConfiguration()``; conformances replace it to change the graph.
    public func resolveHTTPConfiguration() -> HTTPConfiguration { defaultHTTPConfiguration() }
    /// Returns ``defaultHTTPService()``; conformances replace it to change the graph.
    public func resolveHTTPService() -> any HTTPServiceType { defaultHTTPService() }
    /// Returns ``defaultAuthenticationService()``; conformances replace it to change the graph.
    public func resolveAuthenticationService() -> any AuthenticationService { defaultAuthenticationService() }
    /// Returns ``defaultAuthenticationWorker()``; conformances replace it to change the graph.
    public func resolveAuthenticationWorker() -> any AuthenticationWorkerType { defaultAuthenticationWorker() }
    /// Returns ``defaultUsersStore()``; conformances replace it to change the graph.
    public func resolveUsersStore() -> any UsersStore { defaultUsersStore() }
    /// Returns ``defaultUsersCacheDirectory()``; conformances replace it to change the graph.
    public func resolveUsersCacheDirectory() -> URL { defaultUsersCacheDirectory() }
    /// Returns ``defaultUsersCache()``; conformances replace it to change the graph.
    public func resolveUsersCache() -> any UsersCacheStore { defaultUsersCache() }
    /// Returns ``defaultUsersWorker()``; conformances replace it to change the graph.
    public func resolveUsersWorker() -> any UsersWorkerType { defaultUsersWorker() }

    /// The default configuration: ``HTTPConfiguration/default``.
    public func defaultHTTPConfiguration() -> HTTPConfiguration {
        fresh("resolveHTTPConfiguration()") { .default }
    }

    /// The default HTTP service: an ``HTTPService`` with ``resolveHTTPConfiguration()``.
    public func defaultHTTPService() -> any HTTPServiceType {
        fresh("resolveHTTPService()") { HTTPService(configuration: resolveHTTPConfiguration()) }
    }

    /// The default authentication service: an ``AuthenticationNetworkService`` over
    /// ``resolveHTTPService()``.
    public func defaultAuthenticationService() -> any AuthenticationService {
        fresh("resolveAuthenticationService()") { AuthenticationNetworkService(httpService: resolveHTTPService()) }
    }

    /// The default authentication worker: an ``AuthenticationWorker`` over
    /// ``resolveAuthenticationService()``.
    public func defaultAuthenticationWorker() -> any AuthenticationWorkerType {
        fresh("resolveAuthenticationWorker()") { AuthenticationWorker(service: resolveAuthenticationService()) }
    }

    /// The default users store: a ``UsersNetworkStore`` over ``resolveHTTPService()``.
    public func defaultUsersStore() -> any UsersStore {
        fresh("resolveUsersStore()") { UsersNetworkStore(httpService: resolveHTTPService()) }
    }

    /// The default cache directory: `AppCore` inside the system's temporary directory.
    public func defaultUsersCacheDirectory() -> URL {
        fresh("resolveUsersCacheDirectory()") {
            FileManager.default.temporaryDirectory.appendingPathComponent("AppCore", isDirectory: true)
        }
    }

    /// The default users cache: a ``UsersFileCacheStore`` in ``resolveUsersCacheDirectory()``.
    public func defaultUsersCache() -> any UsersCacheStore {
        fresh("resolveUsersCache()") { UsersFileCacheStore(directory: resolveUsersCacheDirectory()) }
    }

    /// The default users worker: a ``UsersWorker`` over ``resolveUsersStore()`` and
    /// ``resolveUsersCache()``.
    public func defaultUsersWorker() -> any UsersWorkerType {
        fresh("resolveUsersWorker()") { UsersWorker(store: resolveUsersStore(), cacheStore: resolveUsersCache()) }
    }
}
