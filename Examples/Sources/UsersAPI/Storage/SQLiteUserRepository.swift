public import Foundation
internal import GRDB

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// A ``UserRepository`` in an SQLite database file, through GRDB: the server's default.
///
/// - **Opened once, checked at start-up.** ``prepare()`` checks the file and its directory,
///   opens the database, applies the schema migrations and runs SQLite's quick integrity
///   check; a locked, corrupt, read-only, missing or untrusted file is a
///   ``UserRepositoryStartupError`` then, not a failure on the first request.
/// - **Private from the first byte.** The directory is created `0700` and the file `0600`
///   (SQLite gives its `-wal` and `-shm` files the same mode). A file or directory owned by
///   another user, reached through a symbolic link, or writable by group or others is refused.
/// - **One transaction per change.** An account and its first session, or a new session and
///   the revocation of the others, are written together or not at all; when the disk (or the
///   configured ``Configuration/maximumPageCount``) is full the transaction rolls back and the
///   call throws ``UserRepositoryError/storageFull``.
/// - **Constraints, not checks.** The email column is `UNIQUE`: of many sign-ups racing for one
///   email exactly one is stored.
/// - **The file stays the file.** The device and inode opened at start-up are checked before
///   every read and before and after every write. A file deleted, replaced (by a copy, a move
///   or a symbolic link) or moved away while the server runs is
///   ``UserRepositoryError/fileChanged(path:detail:)`` from then on, for every call until a
///   restart: nothing is written to a file no one will open again, and nothing is read from
///   another one.
/// - **Statements are constant text.** Every value travels as a bound argument. The one
///   exception is the page limit, a `PRAGMA` (which SQLite does not let take an argument): it is
///   an `Int` from the configuration, never text from a request.
public actor SQLiteUserRepository: UserRepository {
    /// Where the database lives and how it is opened.
    public struct Configuration: Sendable, Hashable {
        /// The database file's path.
        public var path: String
        /// Whether a missing file is created (with its directory); when `false`, a missing file
        /// is ``UserRepositoryStartupError/missing(path:)``.
        public var createIfMissing: Bool
        /// How long a statement waits for another connection's lock before failing.
        public var busyTimeout: Duration
        /// The most pages (4 KiB each) the database may grow to, or `nil` for no limit but the
        /// disk's. A write that would pass it fails as a full disk does.
        public var maximumPageCount: Int?

        /// Creates a configuration.
        /// - Parameters:
        ///   - path: The database file's path.
        ///   - createIfMissing: Whether a missing file is created; `true` by default.
        ///   - busyTimeout: How long to wait for another connection's lock; 2 seconds by default.
        ///   - maximumPageCount: The most 4 KiB pages the database may grow to; no limit by default.
        public init(
            path: String,
            createIfMissing: Bool = true,
            busyTimeout: Duration = .seconds(2),
            maximumPageCount: Int? = nil
        ) {
            self.path = path
            self.createIfMissing = createIfMissing
            self.busyTimeout = busyTimeout
            self.maximumPageCount = maximumPageCount
        }

        /// The default location: `UsersAPI/users.sqlite` in the user's application-support
        /// directory (`$XDG_DATA_HOME` or `~/.local/share` on Linux).
        public static var defaultPath: String {
            let base =
                FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
                ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
            return base.appendingPathComponent("UsersAPI/users.sqlite").path
        }
    }

    /// How this repository was configured.
    public nonisolated let configuration: Configuration
    private var pool: DatabasePool?
    /// The device and inode of the file the pool opened.
    private var openedFile: (device: UInt64, inode: UInt64)?
    /// Set once the file is found changed; every later call fails with it.
    private var fileChange: UserRepositoryError?

    /// Creates a repository; nothing is opened until ``prepare()`` or the first call.
    /// - Parameter configuration: Where the database lives and how it is opened.
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    public func prepare() throws(UserRepositoryStartupError) {
        _ = try openedPool()
    }

    public func insert(_ record: UserRecord, firstSession session: SessionRecord) async throws(UserRepositoryError) {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO users (id, name, email, passwordSalt, passwordIterations, passwordDigest)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    record.id, record.name, record.email, Data(record.passwordHash.salt),
                    record.passwordHash.iterations, Data(record.passwordHash.digest),
                ]
            )
            try Self.insertSession(session, db)
        }
    }

    public func user(email: String) async throws(UserRepositoryError) -> UserRecord? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM users WHERE email = ?", arguments: [email]).map(Self.record)
        }
    }

    public func user(id: String) async throws(UserRepositoryError) -> UserRecord? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM users WHERE id = ?", arguments: [id]).map(Self.record)
        }
    }

    public func users(after cursor: String?, limit: Int) async throws(UserRepositoryError) -> [UserRecord] {
        try await read { db in
            let rows =
                if let cursor {
                    // An unknown cursor compares with NULL and matches nothing.
                    try Row.fetchAll(
                        db,
                        sql:
                            "SELECT * FROM users WHERE seq > (SELECT seq FROM users WHERE id = ?) ORDER BY seq LIMIT ?",
                        arguments: [cursor, limit]
                    )
                } else {
                    try Row.fetchAll(db, sql: "SELECT * FROM users ORDER BY seq LIMIT ?", arguments: [limit])
                }
            return rows.map(Self.record)
        }
    }

    public func replaceSessions(with session: SessionRecord) async throws(UserRepositoryError) {
        try await write { db in
            try db.execute(sql: "DELETE FROM sessions WHERE userID = ?", arguments: [session.userID])
            try Self.insertSession(session, db)
        }
    }

    public func user(forSession fingerprint: String, at now: Date) async throws(UserRepositoryError) -> UserRecord? {
        // One read for the session and its account: this runs on every authenticated request.
        let found = try await read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT users.*, sessions.expiresAt FROM sessions JOIN users ON users.id = sessions.userID
                    WHERE sessions.fingerprint = ?
                    """,
                arguments: [fingerprint]
            ).map { (record: Self.record($0), expiresAt: $0["expiresAt"] as Double) }
        }
        guard let found else { return nil }
        guard found.expiresAt > now.timeIntervalSince1970 else {
            try await write { db in
                try db.execute(sql: "DELETE FROM sessions WHERE fingerprint = ?", arguments: [fingerprint])
            }
            return nil
        }
        return found.record
    }

    public func revokeSession(fingerprint: String) async throws(UserRepositoryError) -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM sessions WHERE fingerprint = ?", arguments: [fingerprint])
            return db.changesCount > 0
        }
    }

    // MARK: Statements

    private static func insertSession(_ session: SessionRecord, _ db: Database) throws {
        try db.execute(
            sql: "INSERT INTO sessions (fingerprint, userID, expiresAt) VALUES (?, ?, ?)",
            arguments: [session.fingerprint, session.userID, session.expiresAt.timeIntervalSince1970]
        )
    }

    private static func record(_ row: Row) -> UserRecord {
        UserRecord(
            id: row["id"],
            name: row["name"],
            email: row["email"],
            passwordHash: PasswordHash(
                salt: Array(row["passwordSalt"] as Data),
                iterations: row["passwordIterations"],
                digest: Array(row["passwordDigest"] as Data)
            )
        )
    }

    /// The schema, one migration per version; GRDB records which ones a file has applied.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: users and sessions") { db in
            try db.create(table: "users") { table in
                // The row order is the sign-up order that `GET /users` pages through.
                table.autoIncrementedPrimaryKey("seq")
                table.column("id", .text).notNull().unique()
                table.column("name", .text).notNull()
                table.column("email", .text).notNull().unique()
                table.column("passwordSalt", .blob).notNull()
                table.column("passwordIterations", .integer).notNull()
                table.column("passwordDigest", .blob).notNull()
            }
            try db.create(table: "sessions") { table in
                table.primaryKey("fingerprint", .text)
                table.column("userID", .text).notNull().references("users", column: "id", onDelete: .cascade)
                table.column("expiresAt", .double).notNull()
            }
            try db.create(index: "sessionsByUser", on: "sessions", columns: ["userID"])
        }
        return migrator
    }

    // MARK: Running

    private func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(UserRepositoryError)
        -> T
    {
        let pool = try runtimePool()
        try checkFile()
        do {
            return try await pool.read(body)
        } catch {
            throw Self.runtimeError(error)
        }
    }

    private func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T)
        async throws(UserRepositoryError) -> T
    {
        let pool = try runtimePool()
        try checkFile()
        let result: T
        do {
            // One transaction: on any error, including a full disk, nothing is kept.
            result = try await pool.write(body)
        } catch {
            throw Self.runtimeError(error)
        }
        // Changed while the transaction ran: what it wrote may be in a file that is gone, so
        // the caller must not report it stored.
        try checkFile()
        return result
    }

    /// Fails, now and for every later call, when the path no longer names the file the pool
    /// opened. One `lstat` per check.
    private func checkFile() throws(UserRepositoryError) {
        if let fileChange { throw fileChange }
        guard let openedFile else { return }
        let path = configuration.path
        var info = stat()
        let detail: String
        if lstat(path, &info) != 0 {
            let reason = errno
            guard reason == ENOENT else { throw .unavailable(String(cString: strerror(reason))) }
            detail = "it was deleted or moved away"
        } else if (info.st_mode & S_IFMT) == S_IFLNK {
            detail = "it was replaced by a symbolic link"
        } else if UInt64(info.st_dev) != openedFile.device || UInt64(info.st_ino) != openedFile.inode {
            detail = "it was replaced by another file"
        } else {
            return
        }
        let change = UserRepositoryError.fileChanged(path: path, detail: detail)
        fileChange = change
        throw change
    }

    private func runtimePool() throws(UserRepositoryError) -> DatabasePool {
        do {
            return try openedPool()
        } catch {
            throw .unavailable(error.description)
        }
    }

    private static func runtimeError(_ error: any Error) -> UserRepositoryError {
        guard let error = error as? DatabaseError else { return .unavailable("\(type(of: error))") }
        switch error.resultCode {
        case .SQLITE_CONSTRAINT where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE: return .emailTaken
        case .SQLITE_FULL: return .storageFull
        // The message only: GRDB never puts statement arguments in it unless configured to.
        default: return .unavailable(error.message ?? "SQLite error \(error.resultCode.rawValue)")
        }
    }

    // MARK: Opening

    private func openedPool() throws(UserRepositoryStartupError) -> DatabasePool {
        if let pool { return pool }
        let path = configuration.path
        try DatabaseFile.secure(path: path, createIfMissing: configuration.createIfMissing)
        var options = GRDB.Configuration()
        let (seconds, attoseconds) = configuration.busyTimeout.components
        options.busyMode = .timeout(Double(seconds) + Double(attoseconds) / 1e18)
        options.label = "UsersAPI"
        if let pages = configuration.maximumPageCount {
            options.prepareDatabase { db in
                // A PRAGMA takes no bound argument; `pages` is an Int from the configuration.
                _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(pages)")
            }
        }
        do {
            let opened = try DatabasePool(path: path, configuration: options)
            let migrator = Self.migrator
            if try opened.read({ db in try migrator.hasBeenSuperseded(db) }) {
                throw UserRepositoryStartupError.newerSchema(path: path)
            }
            try migrator.migrate(opened)
            // Take the write lock once: a database another process holds fails here, now.
            try opened.writeWithoutTransaction { db in try db.inTransaction(.immediate) { .commit } }
            let check = try opened.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
            guard check == ["ok"] else {
                throw UserRepositoryStartupError.corrupt(path: path, detail: check.prefix(3).joined(separator: "; "))
            }
            var info = stat()
            guard stat(path, &info) == 0 else {
                throw UserRepositoryStartupError.failed(path: path, detail: String(cString: strerror(errno)))
            }
            openedFile = (UInt64(info.st_dev), UInt64(info.st_ino))
            pool = opened
            return opened
        } catch let error as UserRepositoryStartupError {
            throw error
        } catch let error as DatabaseError {
            throw Self.startupError(error, path: path)
        } catch {
            throw .failed(path: path, detail: "\(type(of: error))")
        }
    }

    private static func startupError(_ error: DatabaseError, path: String) -> UserRepositoryStartupError {
        let detail = error.message ?? "SQLite error \(error.resultCode.rawValue)"
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: return .locked(path: path)
        case .SQLITE_NOTADB, .SQLITE_CORRUPT: return .corrupt(path: path, detail: detail)
        case .SQLITE_READONLY, .SQLITE_PERM: return .readOnly(path: path)
        default: return .failed(path: path, detail: detail)
        }
    }
}
