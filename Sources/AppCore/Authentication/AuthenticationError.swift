public import HTTPServiceKit
/// Why signing up, logging in or logging out failed.
public enum AuthenticationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The email or password is wrong (HTTP 401 on log-in).
    case invalidCredentials
    /// An account with this email already exists (HTTP 409).
    case emailAlreadyRegistered
    /// The token is missing, expired or revoked (HTTP 401 on an authenticated call).
    case notAuthenticated
    /// The request was rejected as invalid (HTTP 400), with the server's reason.
    case rejected(String)
    /// Any other HTTP failure.
    case http(HTTPError)

    /// A one-line explanation for people.
    public var description: String {
        switch self {
        case .invalidCredentials: "wrong email or password"
        case .emailAlreadyRegistered: "an account with this email already exists"
        case .notAuthenticated: "not signed in, or the session was revoked"
        case .rejected(let reason): "rejected: \(reason)"
        case .http(let error): error.description
        }
    }
}
