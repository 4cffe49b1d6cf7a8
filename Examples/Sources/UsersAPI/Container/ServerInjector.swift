public import DependencyKit

/// Holds the server's container: the global one, and the one scoped to the current request.
///
/// ``UsersServer`` scopes every request to the container it was started with, so two servers
/// in one process (as in the end-to-end tests) never see each other's users. Serves a
/// ``ServerCoreDependency`` until another container is installed.
public let serverInjector = Injector<any ServerDependency> { ServerCoreDependency() }

/// Adopt to read the server's container as `dependencies`.
///
/// ```swift
/// struct AuthenticationController: HasServerDependencies {
///     func logIn(...) async throws -> Response {
///         let users = dependencies.resolveUserRepository()
///         ...
///     }
/// }
/// ```
public protocol HasServerDependencies {}

extension HasServerDependencies {
    /// The server container in effect for the current task (the request's scope).
    @inlinable
    public var dependencies: any ServerDependency { serverInjector.dependencies }
}
