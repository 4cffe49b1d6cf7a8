public import Hummingbird
internal import Logging

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
    /// How `GET /users/me` reaches its services.
    ///
    /// Both wirings run the same handler code with the same repository, token check and JSON;
    /// only how the handler gets its services differs. The server offers both so the cost of
    /// the container can be measured on a real request (`Scripts/benchmarks-server.sh` at the
    /// repository's root).
    public enum Wiring: String, Sendable, Hashable, CaseIterable {
        /// Every route runs inside `withDependencies(container)`, with the request's ID and
        /// signed-in account in effect (``RequestValuesMiddleware``), and reads its services from
        /// `dependencies`, resolved per request: the way this server is written.
        case container
        /// `GET /users/me` is wired by hand: its token issuer and clock are built once at
        /// start-up from concrete types, the handler holds them, and the route runs outside any
        /// dependency scope. Per request it does by hand what the container's wiring does: reads or
        /// makes the request's ID, finds the signed-in account, makes the request's log, passes both
        /// down through the services' initializers and answers with the ID in a header. It shares
        /// the container's repository, opened once at start-up, because the repository is the
        /// server's state: both wirings read the same users. The other routes stay on the
        /// container, so a client can still sign up and log in.
        case hand
    }

    /// Adds the API's middleware and routes to `router`, serving every request with `container`.
    ///
    /// Add your own routes to the same router before or after; they get the same scope and
    /// error shape.
    /// - Parameters:
    ///   - router: The router to extend.
    ///   - container: The server container every request is served with.
    ///   - wiring: How `GET /users/me` gets its services; the container, as every other route,
    ///     by default.
    public static func install<Context: RequestContext>(
        on router: Router<Context>,
        container: any ServerDependency,
        wiring: Wiring = .container
    ) {
        router.add(middleware: ErrorBodyMiddleware())
        if wiring == .hand {
            // Hand-wired: the services are built here, once, and captured by the route. Added
            // before the scope middleware, which applies only to routes added after it.
            let authenticator = SessionAuthenticator(
                tokens: RandomTokenIssuer(),
                clock: SystemWallClock(),
                users: container.resolveUserRepository()
            )
            router.get("users/me") { request, _ in
                // What the middleware and the container do per request, written out: the request's
                // values passed down through the initializers of the services that need them.
                let id = RequestValuesMiddleware<Context>.requestID(of: request)
                let user = try await RequestValuesMiddleware<Context>.signedInUser(of: request, by: authenticator)
                var log = Logger(label: "users-api")
                log[metadataKey: "request-id"] = "\(id)"
                let profile = ProfileService(accounts: AccountService(user: user, log: log))
                var response = try JSONResponse.make(UserPayload(try profile.current()), status: .ok)
                response.headers[RequestValuesMiddleware<Context>.requestIDField] = id
                return response
            }
        }
        // snippet: server-install-middleware
        router.add(middleware: DependencyScopeMiddleware(container: container))  // the app's container
        router.add(middleware: RequestValuesMiddleware())  // each request's values
        // end-snippet
        let authentication = AuthenticationController()
        let users = UsersController()
        router.post("auth/signup") { request, context in try await authentication.signUp(request, context: context) }
        router.post("auth/login") { request, context in try await authentication.logIn(request, context: context) }
        router.post("auth/logout") { request, context in try await authentication.logOut(request, context: context) }
        if wiring == .container {
            router.get("users/me") { request, context in try await users.current(request, context: context) }
        }
        router.get("users") { request, context in try await users.all(request, context: context) }
    }
}
