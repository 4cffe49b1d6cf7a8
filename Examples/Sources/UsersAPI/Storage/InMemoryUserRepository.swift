/// A ``UserRepository`` in memory, safe to use from every request at once.
///
/// An actor serialises access, so two sign-ups with the same email racing each other end with
/// one account and one ``UserRepositoryError/emailTaken``. Everything is lost when the process
/// exits.
public actor InMemoryUserRepository: UserRepository {
    private var records: [UserRecord] = []
    private var indexByEmail: [String: Int] = [:]
    private var indexByID: [String: Int] = [:]
    private var sessions: [String: String] = [:]

    /// Creates an empty repository.
    public init() {}

    public func insert(_ record: UserRecord) throws(UserRepositoryError) {
        guard indexByEmail[record.email] == nil else { throw .emailTaken }
        indexByEmail[record.email] = records.count
        indexByID[record.id] = records.count
        records.append(record)
    }

    public func user(email: String) -> UserRecord? { indexByEmail[email].map { records[$0] } }

    public func user(id: String) -> UserRecord? { indexByID[id].map { records[$0] } }

    public func allUsers() -> [UserRecord] { records }

    public func storeSession(fingerprint: String, userID: String) { sessions[fingerprint] = userID }

    public func userID(forSession fingerprint: String) -> String? { sessions[fingerprint] }

    public func revokeSession(fingerprint: String) -> Bool { sessions.removeValue(forKey: fingerprint) != nil }
}
