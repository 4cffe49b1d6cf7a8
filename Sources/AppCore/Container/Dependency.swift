public import DependencyKit
public import Foundation
public import HTTPServiceKit

/// AppCore's container: one resolve method per dependency.
///
/// The construction logic lives once, in the `makeX()` builders below, which build each value
/// from `self`'s other resolves. ``CoreDependency`` implements every resolve by calling its
/// builder inside `fresh {}` or `live {}`; because the class must implement every requirement
/// itself, a resolve it forgot is a compile error, never an override that is silently ignored.
/// Subclass ``CoreDependency`` to change the graph.
///
/// For a test double that implements only what a test needs, adopt `PartialContainer` too:
/// every other resolve then comes from the defaults in the extension constrained to it, and
/// because the defaults build the graph by calling `self`'s resolves, your one method cascades
/// into everything built on it.
///
/// ```swift
/// final class OfflineDependency: DependencyContainer, Dependency, PartialContainer, @unchecked Sendable {
///     func resolveHTTPService() -> any HTTPServiceType { fresh { OfflineHTTPService() } }
/// }
/// // resolveUsersWorker() now builds a UsersWorker over OfflineHTTPService.
/// ```
///
/// ``resolveHTTPService()`` and ``resolveUsersCacheDirectory()`` are the graph's live leaves —
/// the network and the disk — built with `live {}`: inside a test guarded by DependencyKitTesting,
/// serving either with production code records a test issue that names the override to write.
///
/// The blog post this pattern comes from overloads `resolveService()` and `resolveWorker()`
/// by return type; here every resolve has its own name:
///
/// | blog | AppCore |
/// | --- | --- |
/// | `resolveService() -> HTTPServiceType` | ``resolveHTTPService()`` |
/// | `resolveService() -> AuthenticationService` | ``resolveAuthenticationService()`` |
/// | `resolveWorker() -> AuthenticationWorkerType` | ``resolveAuthenticationWorker()`` |
/// | (none: state two screens share) | ``resolveSessionStore()`` |
/// | `resolveStore() -> UsersStore` | ``resolveUsersStore()`` |
/// | `resolveCache() -> UsersStore` | ``resolveUsersCache()`` |
/// | `resolveWorker() -> UsersWorkerType` | ``resolveUsersWorker()`` |
public protocol Dependency: DependencyContainer {
    /// Where the server is and how to talk to it; built by ``makeHTTPConfiguration()``.
    func resolveHTTPConfiguration() -> HTTPConfiguration
    /// The HTTP service every network type is built on; built by ``makeHTTPService()``. A live leaf.
    func resolveHTTPService() -> any HTTPServiceType
    /// The authentication endpoints; built by ``makeAuthenticationService()``.
    func resolveAuthenticationService() -> any AuthenticationService
    /// What screens call to sign up, log in and log out; built by ``makeAuthenticationWorker()``.
    func resolveAuthenticationWorker() -> any AuthenticationWorkerType
    /// The signed-in session and current user, one per session; built by ``makeSessionStore()``
    /// and held in the ``DependencyKit/Lifetime/session`` scope, which log-out resets.
    func resolveSessionStore() -> SessionStore
    /// Where users come from: the server; built by ``makeUsersStore()``.
    func resolveUsersStore() -> any UsersStore
    /// The directory the users cache lives in; built by ``makeUsersCacheDirectory()``. A live leaf.
    func resolveUsersCacheDirectory() -> URL
    /// The local copy of the last users fetched; built by ``makeUsersCache()``.
    func resolveUsersCache() -> any UsersCacheStore
    /// What screens call to get users; built by ``makeUsersWorker()``.
    func resolveUsersWorker() -> any UsersWorkerType
}

// The graph, written once. Each builder makes one dependency from `self`'s resolves, so an
// override of any resolve reaches everything built on it. The builders are public so that an
// override can decorate the default: `fresh { LoggingCache(makeUsersCache()) }`.
extension Dependency {
    /// The default configuration: ``HTTPServiceKit/HTTPConfiguration/default``.
    public func makeHTTPConfiguration() -> HTTPConfiguration { .default }

    /// An ``HTTPServiceKit/HTTPService`` with ``resolveHTTPConfiguration()``.
    public func makeHTTPService() -> any HTTPServiceType {
        HTTPService(configuration: resolveHTTPConfiguration())
    }

    /// An ``AuthenticationNetworkService`` over ``resolveHTTPService()``.
    public func makeAuthenticationService() -> any AuthenticationService {
        AuthenticationNetworkService(httpService: resolveHTTPService())
    }

    /// An ``AuthenticationWorker`` over ``resolveAuthenticationService()``.
    public func makeAuthenticationWorker() -> any AuthenticationWorkerType {
        AuthenticationWorker(service: resolveAuthenticationService())
    }

    /// An empty ``SessionStore``.
    public func makeSessionStore() -> SessionStore { SessionStore() }

    /// A ``UsersNetworkStore`` over ``resolveHTTPService()``.
    public func makeUsersStore() -> any UsersStore {
        UsersNetworkStore(httpService: resolveHTTPService())
    }

    /// `AppCore` in the user's own caches directory (``UsersFileCacheStore/defaultDirectory(appName:)``),
    /// never the shared temporary directory.
    public func makeUsersCacheDirectory() -> URL {
        UsersFileCacheStore.defaultDirectory(appName: "AppCore")
    }

    /// A ``UsersFileCacheStore`` in ``resolveUsersCacheDirectory()``.
    public func makeUsersCache() -> any UsersCacheStore {
        UsersFileCacheStore(directory: resolveUsersCacheDirectory())
    }

    /// A ``UsersWorker`` over ``resolveUsersStore()`` and ``resolveUsersCache()``.
    public func makeUsersWorker() -> any UsersWorkerType {
        UsersWorker(store: resolveUsersStore(), cacheStore: resolveUsersCache())
    }
}

// The defaults, for partial containers (test doubles) only: the production class implements
// every resolve itself, so that it cannot forget one.
extension Dependency where Self: PartialContainer {
    /// ``makeHTTPConfiguration()``, fresh on each call.
    public func resolveHTTPConfiguration() -> HTTPConfiguration { fresh { makeHTTPConfiguration() } }
    /// ``makeHTTPService()``, a live leaf.
    public func resolveHTTPService() -> any HTTPServiceType { live { makeHTTPService() } }
    /// ``makeAuthenticationService()``, fresh on each call.
    public func resolveAuthenticationService() -> any AuthenticationService { fresh { makeAuthenticationService() } }
    /// ``makeAuthenticationWorker()``, fresh on each call.
    public func resolveAuthenticationWorker() -> any AuthenticationWorkerType { fresh { makeAuthenticationWorker() } }
    /// ``makeSessionStore()``, one per session (the ``DependencyKit/Lifetime/session`` scope).
    public func resolveSessionStore() -> SessionStore { shared(in: .session) { makeSessionStore() } }
    /// ``makeUsersStore()``, fresh on each call.
    public func resolveUsersStore() -> any UsersStore { fresh { makeUsersStore() } }
    /// ``makeUsersCacheDirectory()``, a live leaf.
    public func resolveUsersCacheDirectory() -> URL { live { makeUsersCacheDirectory() } }
    /// ``makeUsersCache()``, fresh on each call.
    public func resolveUsersCache() -> any UsersCacheStore { fresh { makeUsersCache() } }
    /// ``makeUsersWorker()``, fresh on each call.
    public func resolveUsersWorker() -> any UsersWorkerType { fresh { makeUsersWorker() } }
}
