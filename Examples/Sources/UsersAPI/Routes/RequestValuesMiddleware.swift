internal import DependencyKit
internal import Foundation
internal import HTTPTypes
public import Hummingbird

/// Puts each request's own values in effect — its ID and its signed-in account — for everything
/// the handler resolves, at any depth, in one line.
///
/// Added after ``DependencyScopeMiddleware``, so the overrides answer the request's container. The
/// container's long-lived instances (the repository) are `appShared {}`: every request uses the
/// app's, and nothing is built again per request. The request's ID is the client's `X-Request-ID`
/// when it sends a short printable one, else a new UUID; the response carries it back.
public struct RequestValuesMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The header that carries a request's ID both ways.
    static var requestIDField: HTTPField.Name { HTTPField.Name("X-Request-ID")! }

    /// Creates the middleware.
    public init() {}

    // snippet: server-request-values-middleware
    /// Runs the rest of the chain with the request's ID and signed-in account in effect.
    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let id = Self.requestID(of: request)
        let user = try await Self.signedInUser(of: request)
        var response = try await serverInjector.withOverrides(
            .override({ $0.resolveRequestID() }, with: id),
            .override({ $0.resolveSignedInUser() }, with: user)
        ) {
            try await next(request, context)
        }
        response.headers[Self.requestIDField] = id
        return response
    }
    // end-snippet

    /// The client's request ID when it is 1 to 64 printable ASCII characters, else a new one.
    static func requestID(of request: Request) -> String {
        if let sent = request.headers[requestIDField], (1...64).contains(sent.utf8.count),
            sent.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        {
            return sent
        }
        return UUID().uuidString.lowercased()
    }

    /// The account the request's bearer token opens; `nil` without a token or with one that opens
    /// nothing (the handler that needs an account answers 401). A storage failure is the request's.
    static func signedInUser(of request: Request) async throws -> UserRecord? {
        guard request.headers[.authorization] != nil else { return nil }
        let dependencies = serverInjector.dependencies
        let authenticator = SessionAuthenticator(
            tokens: dependencies.resolveTokenIssuer(),
            clock: dependencies.resolveClock(),
            users: dependencies.resolveUserRepository()
        )
        return try await signedInUser(of: request, by: authenticator)
    }

    /// The account the request's bearer token opens, checked by `authenticator`; what the hand-wired
    /// `GET /users/me` calls with the authenticator it built at start-up.
    static func signedInUser(of request: Request, by authenticator: SessionAuthenticator) async throws -> UserRecord? {
        guard request.headers[.authorization] != nil else { return nil }
        do {
            return try await authenticator.user(for: request)
        } catch let error as APIError where error == .notAuthenticated {
            return nil
        }
    }
}
