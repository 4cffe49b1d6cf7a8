public import DependencyKit
public import Logging

/// The server's production container: accounts in SQLite, random tokens, PBKDF2 hashes.
///
/// Subclass it and override a resolve to change what every route handler receives. The
/// repository is the app's (`appShared { }`): opened once per container and returned by every
/// call, in every request's scope — each request has its ID and signed-in user in effect
/// (``RequestValuesMiddleware``), and all requests share one database connection pool.
///
/// Tests swap the storage in one override — an in-memory repository, or a private database
/// file per test:
///
/// ```swift
/// final class InMemoryServer: ServerCoreDependency, @unchecked Sendable {
///     override func resolveUserRepository() -> any UserRepository {
///         appShared { InMemoryUserRepository() }
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

    // snippet: server-app-container
    // The app's: one repository for every request, whatever the request's values.
    open func resolveUserRepository() -> any UserRepository {
        appShared { SQLiteUserRepository(configuration: resolveDatabaseConfiguration()) }
    }

    // The request's: what a request has outside a request; the middleware puts each request's in effect.
    open func resolveRequestID() -> String { fresh { "-" } }
    open func resolveSignedInUser() -> UserRecord? { fresh { nil } }

    // Built per resolve from the request's values, at any depth.
    open func resolveRequestLog() -> Logger {
        fresh {
            var log = Logger(label: "users-api")
            log[metadataKey: "request-id"] = "\(resolveRequestID())"
            return log
        }
    }
    open func resolveAccountService() -> AccountService {
        fresh { AccountService(user: resolveSignedInUser(), log: resolveRequestLog()) }
    }
    open func resolveProfileService() -> ProfileService { fresh { ProfileService(accounts: resolveAccountService()) } }
    // end-snippet

    open func resolveTokenIssuer() -> any TokenIssuer { fresh { RandomTokenIssuer() } }
    open func resolvePasswordHasher() -> any PasswordHasher { fresh { PBKDF2PasswordHasher() } }
    open func resolveClock() -> any WallClock { fresh { SystemWallClock() } }
    open func resolveSessionPolicy() -> SessionPolicy { fresh { SessionPolicy() } }
}
