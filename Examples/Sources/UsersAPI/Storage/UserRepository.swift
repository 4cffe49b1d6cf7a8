/// Where the server keeps accounts and the fingerprints of live bearer tokens.
public protocol UserRepository: Sendable {
    /// Stores a new account.
    /// - Parameter record: The account; its email must be unused.
    /// - Throws: ``UserRepositoryError/emailTaken`` when an account already uses the email.
    func insert(_ record: UserRecord) async throws(UserRepositoryError)
    /// The account with this normalised email, if any.
    func user(email: String) async -> UserRecord?
    /// The account with this identifier, if any.
    func user(id: String) async -> UserRecord?
    /// Every account, oldest first.
    func allUsers() async -> [UserRecord]
    /// Remembers that the token with this fingerprint belongs to `userID`.
    func storeSession(fingerprint: String, userID: String) async
    /// The user a live token fingerprint belongs to, or `nil` if unknown or revoked.
    func userID(forSession fingerprint: String) async -> String?
    /// Revokes a token by its fingerprint.
    /// - Returns: Whether the token was live.
    func revokeSession(fingerprint: String) async -> Bool
}

/// Why the repository refused a change.
public enum UserRepositoryError: Error, Sendable, Hashable {
    /// An account already uses the email.
    case emailTaken
}
