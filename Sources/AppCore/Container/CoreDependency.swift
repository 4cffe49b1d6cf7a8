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

    open func resolveHTTPConfiguration() -> HTTPConfiguration { defaultHTTPConfiguration() }
    open func resolveHTTPService() -> any HTTPServiceType { defaultHTTPService() }
    open func resolveAuthenticationService() -> any AuthenticationService { defaultAuthenticationService() }
    open func resolveAuthenticationWorker() -> any AuthenticationWorkerType { defaultAuthenticationWorker() }
    open func resolveUsersStore() -> any UsersStore { defaultUsersStore() }
    open func resolveUsersCacheDirectory() -> URL { defaultUsersCacheDirectory() }
    open func resolveUsersCache() -> any UsersCacheStore { defaultUsersCache() }
    open func resolveUsersWorker() -> any UsersWorkerType { defaultUsersWorker() }
}
