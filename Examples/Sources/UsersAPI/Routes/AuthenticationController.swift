internal import Foundation
internal import Hummingbird
internal import Logging

/// `POST /auth/signup`, `/auth/login` and `/auth/logout`.
struct AuthenticationController: HasServerDependencies {
    /// The password is bounded in UTF-8 bytes as well as characters, as the other fields are
    /// (``AccountFields``).
    static let minimumPasswordCharacters = 8
    static let maximumPasswordBytes = 1024

    func signUp(_ request: Request, context: some RequestContext) async throws -> Response {
        let payload = try await JSONRequest.decode(SignUpPayload.self, from: request, context: context)
        let name = try AccountFields.validName(payload.name)
        guard let email = try AccountFields.canonicalEmail(payload.email) else {
            throw APIError(.badRequest, "the email address is not valid")
        }
        guard Self.isAcceptablePassword(payload.password) else {
            throw APIError(
                .badRequest,
                "the password must have at least \(Self.minimumPasswordCharacters) characters"
                    + " and at most \(Self.maximumPasswordBytes) bytes in UTF-8"
            )
        }
        let users = dependencies.resolveUserRepository()
        if try await Self.storage({ try await users.user(email: email) }) != nil { throw Self.emailTaken }
        let record = UserRecord(
            id: UUID().uuidString.lowercased(),
            name: name,
            email: email,
            passwordHash: dependencies.resolvePasswordHasher().hash(payload.password)
        )
        let (token, session) = newSession(for: record)
        // The account and its first session are stored in one step: both or neither.
        try await Self.storage { try await users.insert(record, firstSession: session) }
        dependencies.resolveRequestLog().info("signed up", metadata: ["user": "\(record.id)"])
        return try JSONResponse.make(SessionPayload(token: token, user: UserPayload(record)), status: .created)
    }

    func logIn(_ request: Request, context: some RequestContext) async throws -> Response {
        let payload = try await JSONRequest.decode(LogInPayload.self, from: request, context: context)
        let wrongCredentials = APIError(.unauthorized, "wrong email or password")
        // Over-long input and addresses no account can have are refused before any lookup, so
        // the refusal says nothing about which emails have accounts. A control character is a
        // 400 naming the field, as at sign-up: an address cut at a NUL never reaches the store.
        guard payload.password.utf8.count <= Self.maximumPasswordBytes,
            let email = try AccountFields.canonicalEmail(payload.email)
        else { throw wrongCredentials }
        let hasher = dependencies.resolvePasswordHasher()
        let users = dependencies.resolveUserRepository()
        guard let record = try await Self.storage({ try await users.user(email: email) }) else {
            // An unknown email costs the same hashing work as a wrong password, so response
            // timing does not tell which emails have accounts.
            _ = hasher.hash(payload.password)
            throw wrongCredentials
        }
        guard hasher.verify(payload.password, against: record.passwordHash) else { throw wrongCredentials }
        let (token, session) = newSession(for: record)
        // A log-in revokes the user's earlier sessions (see `SessionPolicy`).
        try await Self.storage { try await users.replaceSessions(with: session) }
        dependencies.resolveRequestLog().info("logged in", metadata: ["user": "\(record.id)"])
        return try JSONResponse.make(SessionPayload(token: token, user: UserPayload(record)), status: .ok)
    }

    func logOut(_ request: Request, context: some RequestContext) async throws -> Response {
        let token = try BearerToken.require(in: request)
        let fingerprint = dependencies.resolveTokenIssuer().fingerprint(of: token)
        let users = dependencies.resolveUserRepository()
        guard try await Self.storage({ try await users.revokeSession(fingerprint: fingerprint) }) else {
            throw APIError.notAuthenticated
        }
        return Response(status: .noContent)
    }

    /// A new token and the session record that stores its fingerprint.
    private func newSession(for record: UserRecord) -> (token: String, session: SessionRecord) {
        let issuer = dependencies.resolveTokenIssuer()
        let token = issuer.issue()
        let expiresAt = dependencies.resolveSessionPolicy().expiry(from: dependencies.resolveClock().now())
        return (
            token, SessionRecord(fingerprint: issuer.fingerprint(of: token), userID: record.id, expiresAt: expiresAt)
        )
    }

    /// Runs a repository call, turning its failures into the API's answers.
    static func storage<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch UserRepositoryError.emailTaken {
            throw emailTaken
        } catch UserRepositoryError.storageFull {
            throw APIError(
                HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"),
                "the server has no room to store this; nothing was changed"
            )
        } catch UserRepositoryError.unavailable {
            throw APIError(.serviceUnavailable, "the server's storage is unavailable; try again later")
        } catch UserRepositoryError.fileChanged(let path, let detail) {
            // The path stays out of the answer and goes to the log.
            throw APIError(
                .serviceUnavailable,
                "the server's database file changed while it ran; nothing is stored until it is restarted",
                operatorMessage: "the database file \(path) changed while the server ran (\(detail));"
                    + " the store refuses every request: put the file back and restart the server"
            )
        }
    }

    private static let emailTaken = APIError(.conflict, "an account with this email already exists")

    static func isAcceptablePassword(_ password: String) -> Bool {
        password.utf8.count <= maximumPasswordBytes && password.count >= minimumPasswordCharacters
    }
}
