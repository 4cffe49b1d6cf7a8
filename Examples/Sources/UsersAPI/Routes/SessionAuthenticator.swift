internal import Hummingbird

/// Finds the account whose live session a request's bearer token opens: the check every
/// signed-in route runs.
///
/// It takes its three services as stored properties, whoever built them, so the two wirings of
/// `GET /users/me` (``UsersRoutes/Wiring``) run this same code: the container wiring resolves
/// the services from `dependencies` inside each request's scope (``RequestValuesMiddleware``), the hand
/// wiring builds them once at start-up (``UsersRoutes/install(on:container:wiring:)``).
struct SessionAuthenticator: Sendable {
    /// Fingerprints the presented token, as the repository stores it.
    let tokens: any TokenIssuer
    /// Tells the time, so an expired session opens nothing.
    let clock: any WallClock
    /// Where sessions and accounts are kept.
    let users: any UserRepository

    /// The account signed in with the request's bearer token.
    /// - Throws: A 401 ``APIError`` for a missing, unknown, expired or revoked token; the
    ///   storage's answers (503, 507) when the repository fails.
    func user(for request: Request) async throws -> UserRecord {
        let token = try BearerToken.require(in: request)
        let fingerprint = tokens.fingerprint(of: token)
        let now = clock.now()
        let users = self.users
        guard
            let record = try await AuthenticationController.storage({
                try await users.user(forSession: fingerprint, at: now)
            })
        else {
            throw APIError.notAuthenticated
        }
        return record
    }
}
