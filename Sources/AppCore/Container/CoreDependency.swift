public import DependencyKit
public import Foundation

/// The production container: subclass it and override one resolve to change the graph.
///
/// Every resolve is `open` and builds its value by calling `self`'s other resolves, so an
/// override cascades into everything built on it:
///
/// ```swift
/// final class AppDependency: CoreDependency, @unchecked Sendable {
///     override func resolveUsersCacheDirectory() -> URL { applicationSupport }
/// }
///
/// DependencyInjector.dependencies = AppDependency()   // at launch
/// ```
///
/// Every `UsersWorker` resolved afterwards caches in the new directory. Values are fresh
/// immutable structs on each call.
///
/// Swift asks every subclass of a class that is `@unchecked Sendable` to say so again, which is
/// your promise that the subclass adds no unsynchronised mutable state (store only `let`s; use a
/// shared instance for anything stateful). In a module whose default isolation is `MainActor`,
/// also mark the subclass `nonisolated` so its overrides stay callable from any thread:
/// `nonisolated final class AppDependency: CoreDependency, @unchecked Sendable`.
///
/// The construction logic lives once, in the protocol extension of ``Dependency``; each
/// method here forwards to its `defaultX()` builder so that subclasses can override it.
open class CoreDependency: DependencyContainer, Dependency, @unchecked Sendable {
    /// Creates the container.
    public override init() { super.init() }

    /// Where the server is and how to talk to it; ``Dependency/defaultHTTPConfiguration()`` unless overridden.
    open func resolveHTTPConfiguration() -> HTTPConfiguration { defaultHTTPConfiguration() }
    /// The HTTP service every network type is built on; ``Dependency/defaultHTTPService()`` unless overridden.
    open func resolveHTTPService() -> any HTTPServiceType { defaultHTTPService() }
    /// The authentication endpoints; ``Dependency/defaultAuthenticationService()`` unless overridden.
    open func resolveAuthenticationService() -> any AuthenticationService { defaultAuthenticationService() }
    /// What screens call to sign up, log in and log out; ``Dependency/defaultAuthenticationWorker()`` unless overridden.
    open func resolveAuthenticationWorker() -> any AuthenticationWorkerType { defaultAuthenticationWorker() }
    /// Where users come from; ``Dependency/defaultUsersStore()`` unless overridden.
    open func resolveUsersStore() -> any UsersStore { defaultUsersStore() }
    /// The directory the users cache lives in; ``Dependency/defaultUsersCacheDirectory()`` unless overridden.
    open func resolveUsersCacheDirectory() -> URL { defaultUsersCacheDirectory() }
    /// The local copy of the last users fetched; ``Dependency/defaultUsersCache()`` unless overridden.
    open func resolveUsersCache() -> any UsersCacheStore { defaultUsersCache() }
    /// What screens call to get users; ``Dependency/defaultUsersWorker()`` unless overridden.
    open func resolveUsersWorker() -> any UsersWorkerType { defaultUsersWorker() }
}
