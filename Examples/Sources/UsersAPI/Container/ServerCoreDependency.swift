public import DependencyKit

/// The server's production container: one in-memory repository, random tokens, PBKDF2 hashes.
///
/// Subclass it and override a resolve to change what every route handler receives. The
/// repository is created once per container and returned by every call, so all requests served
/// with this container share it; a new container starts with no users.
open class ServerCoreDependency: DependencyContainer, ServerDependency, @unchecked Sendable {
    // A stored `let` of an actor: immutable and Sendable, which keeps the class's promise.
    private let repository: InMemoryUserRepository

    /// Creates a container with an empty repository.
    public override init() {
        repository = InMemoryUserRepository()
        super.init()
    }

    open func resolveUserRepository() -> any UserRepository { repository }
    open func resolveTokenIssuer() -> any TokenIssuer { defaultTokenIssuer() }
    open func resolvePasswordHasher() -> any PasswordHasher { defaultPasswordHasher() }
}
