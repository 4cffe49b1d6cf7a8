internal import DependencyKit
public import Hummingbird

/// Serves every request with one container, scoped to the request's task.
///
/// Handlers then read `dependencies` (see ``HasServerDependencies``) without a container
/// being passed down, and two servers in one process keep their own containers because the
/// scope is task-local, not global.
public struct DependencyScopeMiddleware<Context: RequestContext>: RouterMiddleware {
    private let container: any ServerDependency

    /// Creates the middleware.
    /// - Parameter container: The container to serve requests with.
    public init(container: any ServerDependency) {
        self.container = container
    }

    /// Runs the rest of the chain with the container in scope.
    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        try await withDependencies(container) { try await next(request, context) }
    }
}
