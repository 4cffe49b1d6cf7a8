internal import DependencyKit
public import HTTPServiceKit

/// What the app's screens call to sign up, log in and log out.
public protocol AuthenticationWorkerType: Sendable {
    /// Creates an account and returns its session.
    func signUp(name: String, email: String, password: Secret) async throws(AuthenticationError) -> Session
    /// Logs in and returns the session.
    func logIn(email: String, password: Secret) async throws(AuthenticationError) -> Session
    /// Logs out, revoking the session's token.
    func logOut(_ session: Session) async throws(AuthenticationError)
}

/// The default ``AuthenticationWorkerType``: validates input, calls the service, and keeps the
/// session's ``SessionStore`` up to date.
///
/// A sign-up or log-in records the session in ``Dependency/resolveSessionStore()``; a log-out
/// clears that store and resets the ``DependencyKit/Lifetime/session`` scope, so the next
/// session starts with a new store. The worker stays an immutable struct: it reaches the store
/// through `dependencies` (the installed container, or the one a test scoped) when it signs in or
/// out, so building a worker costs nothing more than before.
public struct AuthenticationWorker: AuthenticationWorkerType, HasDependencies {
    private let service: any AuthenticationService

    /// Creates the worker.
    /// - Parameter service: The authentication service to call.
    public init(service: any AuthenticationService) {
        self.service = service
    }

    /// Trims the name and email, lowercases the email, checks all three, then signs up and records
    /// the session in the session store.
    /// - Parameters:
    ///   - name: The display name; must not be blank.
    ///   - email: The email address; must contain `@`.
    ///   - password: The password; at least 8 characters.
    /// - Returns: The new account's session.
    /// - Throws: ``AuthenticationError/rejected(_:)`` for invalid input, before any request is sent;
    ///   otherwise whatever the service throws.
    public func signUp(name: String, email: String, password: Secret) async throws(AuthenticationError)
        -> Session
    {
        let name = name.trimmingWhitespace()
        let email = email.trimmingWhitespace().lowercased()
        guard !name.isEmpty else { throw .rejected("the name is empty") }
        guard email.contains("@") else { throw .rejected("the email address is not valid") }
        guard password.revealed.count >= 8 else { throw .rejected("the password is shorter than 8 characters") }
        let session = try await service.signUp(SignUpRequest(name: name, email: email, password: password))
        dependencies.resolveSessionStore().signIn(session)
        return session
    }

    /// Trims and lowercases the email, then logs in and records the session in the session store.
    /// - Parameters:
    ///   - email: The email address.
    ///   - password: The password.
    /// - Returns: The session.
    /// - Throws: ``AuthenticationError/invalidCredentials`` for an empty email or password, before any
    ///   request is sent; otherwise whatever the service throws.
    public func logIn(email: String, password: Secret) async throws(AuthenticationError) -> Session {
        let email = email.trimmingWhitespace().lowercased()
        guard !email.isEmpty, !password.revealed.isEmpty else { throw .invalidCredentials }
        let session = try await service.logIn(Credentials(email: email, password: password))
        dependencies.resolveSessionStore().signIn(session)
        return session
    }

    /// Revokes the session's token, then ends the session locally: clears the session store and
    /// resets the ``DependencyKit/Lifetime/session`` scope.
    ///
    /// The session ends locally even when revoking fails (the device is signed out either way);
    /// the error is still thrown.
    /// - Parameter session: The session to end.
    /// - Throws: Whatever the service throws.
    public func logOut(_ session: Session) async throws(AuthenticationError) {
        defer {
            let container = dependencies
            container.resolveSessionStore().signOut()
            container.reset(.session)
        }
        try await service.logOut(token: session.token)
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }
}
