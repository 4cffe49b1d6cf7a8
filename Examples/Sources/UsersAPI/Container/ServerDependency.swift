public import DependencyKit
public import Logging

/// The Users API server's container: the services its route handlers use.
///
/// The server is wired with DependencyKit exactly like a client app: a protocol of resolve
/// methods, an `open` class that serves every one of them (``ServerCoreDependency``), and an
/// injector (``serverInjector``) that holds the container in effect. Route handlers adopt
/// ``HasServerDependencies`` and read their services from `dependencies`.
///
/// The protocol has no default implementations: a container that forgets a resolve does not
/// compile. A test swaps one service by subclassing ``ServerCoreDependency``:
///
/// ```swift
/// final class FastHashing: ServerCoreDependency, @unchecked Sendable {
///     override func resolvePasswordHasher() -> any PasswordHasher {
///         fresh { PBKDF2PasswordHasher(iterations: 1_000) }
///     }
/// }
/// let server = try await UsersServer.start(container: FastHashing())
/// ```
public protocol ServerDependency: DependencyContainer {
    /// Where users and their sessions are kept: one instance per container, since it holds the
    /// server's state.
    func resolveUserRepository() -> any UserRepository
    /// Where the SQLite database lives and how it is opened.
    func resolveDatabaseConfiguration() -> SQLiteUserRepository.Configuration
    /// Issues and fingerprints bearer tokens.
    func resolveTokenIssuer() -> any TokenIssuer
    /// Hashes and verifies passwords.
    func resolvePasswordHasher() -> any PasswordHasher
    /// Tells the time, for session expiry.
    func resolveClock() -> any WallClock
    /// How long sessions last.
    func resolveSessionPolicy() -> SessionPolicy
    /// The current request's ID: `"-"` outside a request. ``RequestValuesMiddleware`` puts each
    /// request's in effect.
    func resolveRequestID() -> String
    /// The account the request's bearer token opened, `nil` when it has none (or outside a request).
    /// ``RequestValuesMiddleware`` puts each request's in effect.
    func resolveSignedInUser() -> UserRecord?
    /// The request's log: every line carries the request's ID.
    func resolveRequestLog() -> Logger
    /// The signed-in account's operations, two levels below the handler.
    func resolveAccountService() -> AccountService
    /// What `GET /users/me` answers, built on ``resolveAccountService()``.
    func resolveProfileService() -> ProfileService
}
