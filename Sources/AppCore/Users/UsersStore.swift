public import HTTPServiceKit
/// A source of users: the server, or anything a test puts in its place.
public protocol UsersStore: Sendable {
    /// The user the token belongs to.
    func fetchCurrent(token: Secret) async throws(UsersError) -> User
    /// Every user.
    func fetchAll(token: Secret) async throws(UsersError) -> [User]
}

/// A local copy of the last users fetched, read without the network.
public protocol UsersCacheStore: Sendable {
    /// The cached current user, or `nil` on a miss (nothing cached, or an unreadable file).
    func loadCurrent() async -> User?
    /// The cached list of users, or `nil` on a miss.
    func loadAll() async -> [User]?
    /// Replaces the cached current user.
    func save(current: User) async throws(UsersError)
    /// Replaces the cached list of users.
    func save(all: [User]) async throws(UsersError)
    /// Forgets everything cached (on log-out).
    func clear() async throws(UsersError)
}

/// ``UsersStore`` over ``HTTPServiceKit/HTTPServiceType``: `GET /users/me` and `GET /users`.
public struct UsersNetworkStore: UsersStore {
    private let httpService: any HTTPServiceType

    /// Creates the store.
    /// - Parameter httpService: The HTTP service to send requests with.
    public init(httpService: any HTTPServiceType) {
        self.httpService = httpService
    }

    /// Sends `GET /users/me`.
    /// - Parameter token: The bearer token.
    /// - Returns: The user the token belongs to.
    /// - Throws: ``UsersError/notAuthenticated`` on HTTP 401, ``UsersError/http(_:)`` otherwise.
    public func fetchCurrent(token: Secret) async throws(UsersError) -> User {
        do { return try await httpService.get("/users/me", token: token) } catch { throw Self.map(error) }
    }

    /// Sends `GET /users`.
    /// - Parameter token: The bearer token.
    /// - Returns: Every user.
    /// - Throws: ``UsersError/notAuthenticated`` on HTTP 401, ``UsersError/http(_:)`` otherwise.
    public func fetchAll(token: Secret) async throws(UsersError) -> [User] {
        do { return try await httpService.get("/users", token: token) } catch { throw Self.map(error) }
    }

    static func map(_ error: HTTPError) -> UsersError {
        if case .status(401, _) = error { return .notAuthenticated }
        return .http(error)
    }
}
