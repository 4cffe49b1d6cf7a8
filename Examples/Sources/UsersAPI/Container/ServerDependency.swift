public import DependencyKit

/// The Users API server's container: the services its route handlers use.
///
/// The server is wired with DependencyKit exactly like a client app: a protocol of resolve
/// methods, an `open` class that serves them (``ServerCoreDependency``), and an injector
/// (``ServerInjector``) that holds the container in effect. Route handlers adopt
/// ``HasServerDependencies`` and read their services from `dependencies`.
///
/// A test swaps one service by subclassing ``ServerCoreDependency``:
///
/// ```swift
/// final class FastHashing: ServerCoreDependency, @unchecked Sendable {
///     override func resolvePasswordHasher() -> any PasswordHasher {
///         PBKDF2PasswordHasher(iterations: 1_000)
///     }
/// }
/// let server = try await UsersServer.start(container: FastHashing())
/// ```
public protocol ServerDependency: InjectableContainer where Injector == ServerInjector {
    /// Where users and their sessions are kept: one instance per container, since it holds the
    /// server's state.
    func resolveUserRepository() -> any UserRepository
    /// Issues and fingerprints bearer tokens.
    func resolveTokenIssuer() -> any TokenIssuer
    /// Hashes and verifies passwords.
    func resolvePasswordHasher() -> any PasswordHasher
}

// The defaults, written once; `ServerCoreDependency` forwards to them so subclasses can override.
extension ServerDependency {
    public func resolveUserRepository() -> any UserRepository { defaultUserRepository() }
    public func resolveTokenIssuer() -> any TokenIssuer { defaultTokenIssuer() }
    public func resolvePasswordHasher() -> any PasswordHasher { defaultPasswordHasher() }

    /// The default repository: one ``InMemoryUserRepository`` per container, created on first
    /// use and shared by every request served with that container.
    public func defaultUserRepository() -> any UserRepository { shared { InMemoryUserRepository() } }

    /// The default token issuer: a ``RandomTokenIssuer``.
    public func defaultTokenIssuer() -> any TokenIssuer { fresh { RandomTokenIssuer() } }

    /// The default password hasher: a ``PBKDF2PasswordHasher`` with its default cost.
    public func defaultPasswordHasher() -> any PasswordHasher { fresh { PBKDF2PasswordHasher() } }
}
