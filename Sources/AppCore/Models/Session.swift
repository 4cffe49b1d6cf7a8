public import HTTPServiceKit
/// What the server returns after signing up or logging in: a bearer token and its user.
public struct Session: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The bearer token to send with authenticated requests.
    public let token: Secret
    /// The signed-in user.
    public let user: User

    /// Creates a session.
    /// - Parameters:
    ///   - token: The bearer token.
    ///   - user: The signed-in user.
    public init(token: Secret, user: User) {
        self.token = token
        self.user = user
    }

    /// Names the user; the token stays redacted.
    public var description: String { "Session(user: \(user.email), token: <redacted>)" }
}

/// The body of a sign-up request.
public struct SignUpRequest: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The display name.
    public let name: String
    /// The email address.
    public let email: String
    /// The chosen password.
    public let password: Secret

    /// Creates a sign-up request.
    /// - Parameters:
    ///   - name: The display name.
    ///   - email: The email address.
    ///   - password: The chosen password.
    public init(name: String, email: String, password: Secret) {
        self.name = name
        self.email = email
        self.password = password
    }

    /// Names the account; the password stays redacted.
    public var description: String { "SignUpRequest(name: \(name), email: \(email), password: <redacted>)" }
}

/// The body of a log-in request.
public struct Credentials: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The email address.
    public let email: String
    /// The password.
    public let password: Secret

    /// Creates credentials.
    /// - Parameters:
    ///   - email: The email address.
    ///   - password: The password.
    public init(email: String, password: Secret) {
        self.email = email
        self.password = password
    }

    /// Names the account; the password stays redacted.
    public var description: String { "Credentials(email: \(email), password: <redacted>)" }
}
