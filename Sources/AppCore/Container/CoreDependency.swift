public import DependencyKit
public import Foundation
public import HTTPServiceKit

/// The production container: subclass it and override one resolve to change the graph.
///
/// Every resolve is `open` and builds its value with its ``Dependency`` builder, which calls
/// `self`'s other resolves, so an override cascades into everything built on it:
///
/// ```swift
/// final class AppDependency: CoreDependency, @unchecked Sendable {
///     override func resolveUsersCacheDirectory() -> URL { fresh { applicationSupport } }
/// }
///
/// DependencyInjector.dependencies = AppDependency()   // at launch
/// ```
///
/// Every `UsersWorker` resolved afterwards caches in the new directory. Values are fresh
/// immutable structs on each call, except ``resolveSessionStore()``: one ``SessionStore`` per
/// signed-in session, held in the ``DependencyKit/Lifetime/session`` scope.
///
/// The compiler guards the shape: this class implements every requirement of ``Dependency``
/// (it does not take the defaults that `PartialContainer` doubles get), so a subclass method
/// without `override` is an error, and so is an override of a resolve that does not exist.
///
/// Swift asks every subclass of a class that is `@unchecked Sendable` to say so again, which is
/// your promise that the subclass adds no unsynchronised mutable state (store only `let`s; use a
/// shared instance for anything stateful). A subclass needs no `nonisolated`, even in a module whose
/// default isolation is `MainActor`: it inherits it from `DependencyContainer`, so its overrides
/// stay callable from any thread. `CoreDependency` itself is sound: it stores nothing, and its base class keeps its state behind locks and atomics.
open class CoreDependency: DependencyContainer, Dependency, @unchecked Sendable {
    /// ``Dependency/makeHTTPConfiguration()``, fresh on each call.
    open func resolveHTTPConfiguration() -> HTTPConfiguration { fresh { makeHTTPConfiguration() } }
    /// ``Dependency/makeHTTPService()``, a live leaf: tests must override it.
    open func resolveHTTPService() -> any HTTPServiceType { live { makeHTTPService() } }
    /// ``Dependency/makeAuthenticationService()``, fresh on each call.
    open func resolveAuthenticationService() -> any AuthenticationService { fresh { makeAuthenticationService() } }
    /// ``Dependency/makeAuthenticationWorker()``, fresh on each call.
    open func resolveAuthenticationWorker() -> any AuthenticationWorkerType { fresh { makeAuthenticationWorker() } }
    /// ``Dependency/makeSessionStore()``, one per session: held in the
    /// ``DependencyKit/Lifetime/session`` scope, which log-out resets.
    open func resolveSessionStore() -> SessionStore { shared(in: .session) { makeSessionStore() } }
    /// ``Dependency/makeUsersStore()``, fresh on each call.
    open func resolveUsersStore() -> any UsersStore { fresh { makeUsersStore() } }
    /// ``Dependency/makeUsersCacheDirectory()``, a live leaf: tests must override it.
    open func resolveUsersCacheDirectory() -> URL { live { makeUsersCacheDirectory() } }
    /// ``Dependency/makeUsersCache()``, fresh on each call.
    open func resolveUsersCache() -> any UsersCacheStore { fresh { makeUsersCache() } }
    /// ``Dependency/makeUsersWorker()``, fresh on each call.
    open func resolveUsersWorker() -> any UsersWorkerType { fresh { makeUsersWorker() } }
}
