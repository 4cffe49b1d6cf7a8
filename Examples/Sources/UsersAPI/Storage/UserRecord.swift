/// A stored account: the public user fields and the password's hash.
public struct UserRecord: Sendable, Hashable, CustomStringConvertible {
    /// The server-assigned identifier.
    public let id: String
    /// The display name.
    public let name: String
    /// The email address in its canonical spelling (NFKC, case-folded, no zero-width characters,
    /// no trailing dot in the domain), under which the account is found.
    public let email: String
    /// The salted hash of the password; the password itself is never stored.
    public let passwordHash: PasswordHash

    /// Creates a record.
    /// - Parameters:
    ///   - id: The identifier.
    ///   - name: The display name.
    ///   - email: The email address in its canonical spelling.
    ///   - passwordHash: The password's hash.
    public init(id: String, name: String, email: String, passwordHash: PasswordHash) {
        self.id = id
        self.name = name
        self.email = email
        self.passwordHash = passwordHash
    }

    /// Names the account; the hash stays out of logs.
    public var description: String { "UserRecord(id: \(id), email: \(email))" }
}
