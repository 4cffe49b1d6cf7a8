public import Foundation

/// Where the server keeps accounts and the fingerprints of live bearer tokens.
///
/// Every change that must happen together is one call (an account and its first session, a
/// new session and the revocation of the others), so a store that fails half-way — a full
/// disk — leaves nothing half-written.
public protocol UserRepository: Sendable {
    /// Opens the store and brings its schema up to date; ``UsersServer`` calls it before it
    /// accepts connections, so a store that cannot work stops the start, not the first request.
    /// Calling it again does nothing.
    /// - Throws: ``UserRepositoryStartupError`` naming why the store cannot be used.
    func prepare() async throws(UserRepositoryStartupError)
    /// Stores a new account together with its first session.
    /// - Parameters:
    ///   - record: The account; its email must be unused.
    ///   - session: The session opened by the sign-up.
    /// - Throws: ``UserRepositoryError/emailTaken`` when an account already uses the email; then
    ///   nothing is stored.
    func insert(_ record: UserRecord, firstSession session: SessionRecord) async throws(UserRepositoryError)
    /// The account with this normalised email, if any.
    func user(email: String) async throws(UserRepositoryError) -> UserRecord?
    /// The account with this identifier, if any.
    func user(id: String) async throws(UserRepositoryError) -> UserRecord?
    /// Up to `limit` accounts in sign-up order, starting after the account `cursor` names (from
    /// the first when `nil`; none when `cursor` is unknown).
    func users(after cursor: String?, limit: Int) async throws(UserRepositoryError) -> [UserRecord]
    /// Stores `session` and revokes every other session of its user, in one step.
    func replaceSessions(with session: SessionRecord) async throws(UserRepositoryError)
    /// The account a token fingerprint belongs to, or `nil` if unknown, revoked or expired at `now`.
    func user(forSession fingerprint: String, at now: Date) async throws(UserRepositoryError) -> UserRecord?
    /// Revokes a token by its fingerprint.
    /// - Returns: Whether the token was live.
    func revokeSession(fingerprint: String) async throws(UserRepositoryError) -> Bool
}

/// A session as stored: the token's fingerprint (never the token), its user and its expiry.
public struct SessionRecord: Sendable, Hashable {
    /// The SHA-256 fingerprint of the bearer token.
    public let fingerprint: String
    /// The user the token belongs to.
    public let userID: String
    /// When the token stops working.
    public let expiresAt: Date

    /// Creates a session record.
    /// - Parameters:
    ///   - fingerprint: The token's fingerprint.
    ///   - userID: The user the token belongs to.
    ///   - expiresAt: When the token stops working.
    public init(fingerprint: String, userID: String, expiresAt: Date) {
        self.fingerprint = fingerprint
        self.userID = userID
        self.expiresAt = expiresAt
    }
}

/// Why the repository refused or failed a request.
public enum UserRepositoryError: Error, Sendable, Hashable {
    /// An account already uses the email.
    case emailTaken
    /// The store has no room left (a full disk, or the configured size limit); nothing was
    /// changed.
    case storageFull
    /// The store failed; the message names the failure and never holds a password or token.
    case unavailable(String)
    /// The database file was deleted, replaced or moved while the server ran. The store
    /// refuses every call from then on, so that accounts are neither written where no one
    /// will read them nor read from another file; put the file back and restart the server.
    case fileChanged(path: String, detail: String)
}

/// Why a repository could not be opened at start-up.
public enum UserRepositoryStartupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The database file does not exist and the repository was told not to create it.
    case missing(path: String)
    /// Another connection or process holds a lock on the database and did not release it in time.
    case locked(path: String)
    /// The file is not a database, or the database is damaged.
    case corrupt(path: String, detail: String)
    /// The database cannot be written: the file has no write permission for its owner, or the
    /// file system is read-only.
    case readOnly(path: String)
    /// The file or its directory belongs to another user, is reached through a symbolic link,
    /// or is not a regular file or directory; the server will not keep its users there.
    case untrusted(path: String, reason: String)
    /// The directory for the database cannot be created or used.
    case directoryUnavailable(path: String, reason: String)
    /// The database was migrated by a newer version of the server, whose schema this one does not know.
    case newerSchema(path: String)
    /// Any other failure to open, with SQLite's message.
    case failed(path: String, detail: String)

    public var description: String {
        switch self {
        case .missing(let path): "no database at \(path) (it is not created automatically here)"
        case .locked(let path): "the database at \(path) is locked by another connection or process"
        case .corrupt(let path, let detail): "the database at \(path) is not a database or is damaged: \(detail)"
        case .readOnly(let path): "the database at \(path) is read-only"
        case .untrusted(let path, let reason): "refusing the database at \(path): \(reason)"
        case .directoryUnavailable(let path, let reason): "cannot use the directory \(path): \(reason)"
        case .newerSchema(let path): "the database at \(path) was written by a newer version of the server"
        case .failed(let path, let detail): "cannot open the database at \(path): \(detail)"
        }
    }
}
