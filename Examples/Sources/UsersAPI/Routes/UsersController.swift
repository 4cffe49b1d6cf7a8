internal import Hummingbird

/// `GET /users/me` and `GET /users`, for holders of a live bearer token.
struct UsersController: HasServerDependencies {
    func current(_ request: Request, context: some RequestContext) async throws -> Response {
        let record = try await authenticatedUser(request)
        return try JSONResponse.make(UserPayload(record), status: .ok)
    }

    func all(_ request: Request, context: some RequestContext) async throws -> Response {
        _ = try await authenticatedUser(request)
        let users = await dependencies.resolveUserRepository().allUsers().map(UserPayload.init)
        return try JSONResponse.make(users, status: .ok)
    }

    private func authenticatedUser(_ request: Request) async throws -> UserRecord {
        let token = try BearerToken.require(in: request)
        let fingerprint = dependencies.resolveTokenIssuer().fingerprint(of: token)
        let users = dependencies.resolveUserRepository()
        guard let id = await users.userID(forSession: fingerprint), let record = await users.user(id: id) else {
            throw APIError.notAuthenticated
        }
        return record
    }
}
