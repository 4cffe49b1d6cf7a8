public import Hummingbird

/// Installs the Users API on a router.
///
/// | route | success | failures |
/// | --- | --- | --- |
/// | `POST /auth/signup` `{name, email, password}` | 201 `{token, user}` | 400, 409 |
/// | `POST /auth/login` `{email, password}` | 200 `{token, user}` | 400, 401 |
/// | `POST /auth/logout` (bearer) | 204 | 401 |
/// | `GET /users/me` (bearer) | 200 `user` | 401 |
/// | `GET /users` (bearer) | 200 `[user]` | 401 |
///
/// Every error body is `{"error": "message"}`.
public enum UsersRoutes {
    /// Adds the API's middleware and routes to `router`, serving every request with `container`.
    ///
    /// Add your own routes to the same router before or after; they get the same scope and
    /// error shape.
    /// - Parameters:
    ///   - router: The router to extend.
    ///   - container: The server container every request is served with.
    public static func install<Context: RequestContext>(on router: Router<Context>, container: any ServerDependency) {
        router.add(middleware: ErrorBodyMiddleware())
        router.add(middleware: DependencyScopeMiddleware(container: container))
        let authentication = AuthenticationController()
        let users = UsersController()
        router.post("auth/signup") { request, context in try await authentication.signUp(request, context: context) }
        router.post("auth/login") { request, context in try await authentication.logIn(request, context: context) }
        router.post("auth/logout") { request, context in try await authentication.logOut(request, context: context) }
        router.get("users/me") { request, context in try await users.current(request, context: context) }
        router.get("users") { request, context in try await users.all(request, context: context) }
    }
}
