/// A user of the Users API.
public struct User: Codable, Sendable, Hashable, Identifiable {
    /// The server-assigned identifier.
    public let id: String
    /// The display name.
    public let name: String
    /// The email address used to log in.
    public let email: String

    /// Creates a user.
    /// - Parameters:
    ///   - id: The server-assigned identifier.
    ///   - name: The display name.
    ///   - email: The email address used to log in.
    public init(id: String, name: String, email: String) {
        self.id = id
        self.name = name
        self.email = email
    }
}
