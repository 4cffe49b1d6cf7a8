public import HTTPServiceKit
/// Why fetching or caching users failed.
public enum UsersError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The token is missing, expired or revoked (HTTP 401).
    case notAuthenticated
    /// Any other HTTP failure.
    case http(HTTPError)
    /// The cache could not be written; the previous cache file is intact.
    case cacheWriteFailed(String)

    /// A one-line explanation for people.
    public var description: String {
        switch self {
        case .notAuthenticated: "not signed in, or the session was revoked"
        case .http(let error): error.description
        case .cacheWriteFailed(let reason): "could not write the users cache: \(reason)"
        }
    }
}
