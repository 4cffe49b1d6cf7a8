public import HTTPServiceKit
/// The server's authentication endpoints.
public protocol AuthenticationService: Sendable {
    /// Creates an account and returns its session.
    func signUp(_ request: SignUpRequest) async throws(AuthenticationError) -> Session
    /// Exchanges credentials for a session.
    func logIn(_ credentials: Credentials) async throws(AuthenticationError) -> Session
    /// Revokes a session's token.
    func logOut(token: Secret) async throws(AuthenticationError)
}

/// ``AuthenticationService`` over ``HTTPServiceKit/HTTPServiceType``: `POST /auth/signup`, `/auth/login`,
/// `/auth/logout`.
public struct AuthenticationNetworkService: AuthenticationService {
    private let httpService: any HTTPServiceType

    /// Creates the service.
    /// - Parameter httpService: The HTTP service to send requests with.
    public init(httpService: any HTTPServiceType) {
        self.httpService = httpService
    }

    /// Sends `POST /auth/signup`.
    /// - Parameter request: The new account's name, email and password.
    /// - Returns: The new account's session.
    /// - Throws: ``AuthenticationError/emailAlreadyRegistered`` on HTTP 409,
    ///   ``AuthenticationError/rejected(_:)`` on HTTP 400, ``AuthenticationError/invalidCredentials`` on
    ///   HTTP 401, ``AuthenticationError/http(_:)`` for other failures.
    public func signUp(_ request: SignUpRequest) async throws(AuthenticationError) -> Session {
        do {
            return try await httpService.post("/auth/signup", body: request, token: nil)
        } catch {
            throw Self.map(error, unauthorized: .invalidCredentials)
        }
    }

    /// Sends `POST /auth/login`.
    /// - Parameter credentials: The email and password.
    /// - Returns: The session, with its bearer token.
    /// - Throws: ``AuthenticationError/invalidCredentials`` on HTTP 401,
    ///   ``AuthenticationError/rejected(_:)`` on HTTP 400, ``AuthenticationError/http(_:)`` for other
    ///   failures.
    public func logIn(_ credentials: Credentials) async throws(AuthenticationError) -> Session {
        do {
            return try await httpService.post("/auth/login", body: credentials, token: nil)
        } catch {
            throw Self.map(error, unauthorized: .invalidCredentials)
        }
    }

    /// Sends `POST /auth/logout` with the token, which revokes it.
    /// - Parameter token: The bearer token to revoke.
    /// - Throws: ``AuthenticationError/notAuthenticated`` on HTTP 401, ``AuthenticationError/http(_:)``
    ///   for other failures.
    public func logOut(token: Secret) async throws(AuthenticationError) {
        do {
            try await httpService.send("/auth/logout", body: EmptyBody(), token: token)
        } catch {
            throw Self.map(error, unauthorized: .notAuthenticated)
        }
    }

    static func map(_ error: HTTPError, unauthorized: AuthenticationError) -> AuthenticationError {
        switch error {
        case .status(401, _): unauthorized
        case .status(409, _): .emailAlreadyRegistered
        case .status(400, let reason): .rejected(reason)
        default: .http(error)
        }
    }
}
