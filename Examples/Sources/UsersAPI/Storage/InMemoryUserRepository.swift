public import Foundation

/// A ``UserRepository`` in memory, safe to use from every request at once; for tests.
///
/// An actor serialises access, so two sign-ups with the same email racing each other end with
/// one account and one ``UserRepositoryError/emailTaken``. Everything is lost when the process
/// exits, which is what a test wants: give each server container its own instance
/// (`appShared { InMemoryUserRepository() }` in an override) and every test starts empty.
public actor InMemoryUserRepository: UserRepository {
    private var records: [UserRecord] = []
    private var indexByEmail: [String: Int] = [:]
    private var indexByID: [String: Int] = [:]
    private var sessions: [String: SessionRecord] = [:]

    /// Creates an empty repository.
    public init() {}

    public func prepare() {}

    public func insert(_ record: UserRecord, firstSession session: SessionRecord) throws(UserRepositoryError) {
        guard indexByEmail[record.email] == nil else { throw .emailTaken }
        indexByEmail[record.email] = records.count
        indexByID[record.id] = records.count
        records.append(record)
        sessions[session.fingerprint] = session
    }

    public func user(email: String) -> UserRecord? { indexByEmail[email].map { records[$0] } }

    public func user(id: String) -> UserRecord? { indexByID[id].map { records[$0] } }

    public func users(after cursor: String?, limit: Int) -> [UserRecord] {
        let start: Int
        if let cursor {
            guard let index = indexByID[cursor] else { return [] }
            start = index + 1
        } else {
            start = 0
        }
        return Array(records[min(start, records.count)...].prefix(max(limit, 0)))
    }

    public func replaceSessions(with session: SessionRecord) {
        sessions = sessions.filter { $0.value.userID != session.userID }
        sessions[session.fingerprint] = session
    }

    public func user(forSession fingerprint: String, at now: Date) -> UserRecord? {
        guard let session = sessions[fingerprint] else { return nil }
        guard session.expiresAt > now else {
            sessions[fingerprint] = nil
            return nil
        }
        return user(id: session.userID)
    }

    public func revokeSession(fingerprint: String) -> Bool { sessions.removeValue(forKey: fingerprint) != nil }
}
