public import DependencyKit

/// The server's production container: one in-memory repository, random tokens, PBKDF2 hashes.
///
/// Subclass it and override a resolve to change what every route handler receives. The
/// repository is a shared instance (`shared { }`): created once per container and returned by
/// every call, so all requests served with this container share it, and a new container
/// starts with no users.
open class ServerCoreDependency: DependencyContainer, ServerDependency, @unchecked Sendable {
    /// Creates a container; its repository is created, empty, on first use.
    public override init() { super.init() }

    open func resolveUserRepository() -> any UserRepository { shared { InMemoryUserRepository() } }
    open func resolveTokenIssuer() -> any TokenIssuer { fresh { RandomTokenIssuer() } }
    open func resolvePasswordHasher() -> any PasswordHasher { fresh { PBKDF2PasswordHasher() } }
    open func resolveClock() -> any WallClock { fresh { SystemWallClock() } }
    open func resolveSessionPolicy() -> SessionPolicy { fresh { SessionPolicy() } }
}
