public import DependencyKit

/// The server's production container: accounts in SQLite, random tokens, PBKDF2 hashes.
///
/// Subclass it and override a resolve to change what every route handler receives. The
/// repository is a shared instance (`shared { }`): opened once per container and returned by
/// every call, so all requests served with this container share one database connection pool.
///
/// Tests swap the storage in one override — an in-memory repository, or a private database
/// file per test:
///
/// ```swift
/// final class InMemoryServer: ServerCoreDependency, @unchecked Sendable {
///     override func resolveUserRepository() -> any UserRepository {
///         shared { InMemoryUserRepository() }
///     }
/// }
/// ```
///
/// `@unchecked Sendable`: sound because this class stores nothing mutable of its own; subclasses
/// restate it (Swift requires that) and keep the promise by storing only `let`s of Sendable values.
open class ServerCoreDependency: DependencyContainer, ServerDependency, @unchecked Sendable {
    private let databasePath: String?

    /// Creates a container; its database is opened when the server starts.
    /// - Parameter databasePath: The SQLite file; `nil` for
    ///   ``SQLiteUserRepository/Configuration/defaultPath``.
    public init(databasePath: String? = nil) {
        self.databasePath = databasePath
        super.init()
    }

    open func resolveDatabaseConfiguration() -> SQLiteUserRepository.Configuration {
        fresh {
            SQLiteUserRepository.Configuration(path: databasePath ?? SQLiteUserRepository.Configuration.defaultPath)
        }
    }

    open func resolveUserRepository() -> any UserRepository {
        shared { SQLiteUserRepository(configuration: resolveDatabaseConfiguration()) }
    }

    open func resolveTokenIssuer() -> any TokenIssuer { fresh { RandomTokenIssuer() } }
    open func resolvePasswordHasher() -> any PasswordHasher { fresh { PBKDF2PasswordHasher() } }
    open func resolveClock() -> any WallClock { fresh { SystemWallClock() } }
    open func resolveSessionPolicy() -> SessionPolicy { fresh { SessionPolicy() } }
}
