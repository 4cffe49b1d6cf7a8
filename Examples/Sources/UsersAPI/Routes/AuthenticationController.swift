internal import Foundation
internal import Hummingbird
internal import Logging

/// `POST /auth/signup`, `/auth/login` and `/auth/logout`.
struct AuthenticationController: HasServerDependencies {
    static let maximumNameLength = 200
    static let maximumEmailLength = 254
    static let minimumPasswordLength = 8
    static let maximumPasswordLength = 1024

    func signUp(_ request: Request, context: some RequestContext) async throws -> Response {
        let payload = try await JSONRequest.decode(SignUpPayload.self, from: request, context: context)
        let name = payload.name.trimmingCharacters(in: .whitespacesAndNewlines)
        let email = Self.normalise(payload.email)
        guard !name.isEmpty, name.count <= Self.maximumNameLength else {
            throw APIError(.badRequest, "the name must have 1 to \(Self.maximumNameLength) characters")
        }
        guard Self.isPlausibleEmail(email) else { throw APIError(.badRequest, "the email address is not valid") }
        guard (Self.minimumPasswordLength...Self.maximumPasswordLength).contains(payload.password.count) else {
            throw APIError(
                .badRequest,
                "the password must have \(Self.minimumPasswordLength) to \(Self.maximumPasswordLength) characters"
            )
        }
        let users = dependencies.resolveUserRepository()
        if await users.user(email: email) != nil { throw Self.emailTaken }
        let record = UserRecord(
            id: UUID().uuidString.lowercased(),
            name: name,
            email: email,
            passwordHash: dependencies.resolvePasswordHasher().hash(payload.password)
        )
        do {
            try await users.insert(record)
        } catch {
            throw Self.emailTaken
        }
        context.logger.info("signed up", metadata: ["user": "\(record.id)"])
        return try await openSession(for: record, status: .created)
    }

    func logIn(_ request: Request, context: some RequestContext) async throws -> Response {
        let payload = try await JSONRequest.decode(LogInPayload.self, from: request, context: context)
        let hasher = dependencies.resolvePasswordHasher()
        guard let record = await dependencies.resolveUserRepository().user(email: Self.normalise(payload.email)),
            payload.password.count <= Self.maximumPasswordLength,
            hasher.verify(payload.password, against: record.passwordHash)
        else {
            // One message for an unknown email and a wrong password, so neither is revealed.
            throw APIError(.unauthorized, "wrong email or password")
        }
        context.logger.info("logged in", metadata: ["user": "\(record.id)"])
        return try await openSession(for: record, status: .ok)
    }

    func logOut(_ request: Request, context: some RequestContext) async throws -> Response {
        let token = try BearerToken.require(in: request)
        let fingerprint = dependencies.resolveTokenIssuer().fingerprint(of: token)
        guard await dependencies.resolveUserRepository().revokeSession(fingerprint: fingerprint) else {
            throw APIError.notAuthenticated
        }
        return Response(status: .noContent)
    }

    private func openSession(for record: UserRecord, status: HTTPResponse.Status) async throws -> Response {
        let issuer = dependencies.resolveTokenIssuer()
        let token = issuer.issue()
        await dependencies.resolveUserRepository().storeSession(
            fingerprint: issuer.fingerprint(of: token),
            userID: record.id
        )
        return try JSONResponse.make(SessionPayload(token: token, user: UserPayload(record)), status: status)
    }

    private static let emailTaken = APIError(.conflict, "an account with this email already exists")

    static func normalise(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    static func isPlausibleEmail(_ email: String) -> Bool {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        return email.count <= maximumEmailLength && parts.count == 2 && !parts[0].isEmpty
            && parts[1].contains(".") && !email.contains(where: \.isWhitespace)
    }
}
