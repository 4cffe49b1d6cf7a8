internal import HTTPTypes
internal import Hummingbird

/// `GET /users/me` and `GET /users`, for holders of a live bearer token.
struct UsersController: HasServerDependencies {
    /// Accounts per page of `GET /users` unless `limit` asks for fewer.
    static let defaultPageSize = 50
    /// The most accounts one page returns, whatever `limit` asks: with every field bounded in
    /// bytes, this bounds the response too.
    static let maximumPageSize = 100

    func current(_ request: Request, context: some RequestContext) async throws -> Response {
        // The signed-in account reaches the profile service's account service from the request's values.
        let record = try dependencies.resolveProfileService().current()
        return try JSONResponse.make(UserPayload(record), status: .ok)
    }

    /// One page of accounts in sign-up order, as a JSON array. `?limit=N` (1 to 100) sets the
    /// page size, `?after=ID` starts after that account; when more follow, a
    /// `Link: </users?after=…&limit=…>; rel="next"` header names the next page.
    func all(_ request: Request, context: some RequestContext) async throws -> Response {
        _ = try dependencies.resolveAccountService().signedInUser()
        let query = request.uri.queryParameters
        var limit = Self.defaultPageSize
        if let raw = query["limit"] {
            guard let asked = Int(String(raw)), (1...Self.maximumPageSize).contains(asked) else {
                throw APIError(.badRequest, "limit must be a whole number from 1 to \(Self.maximumPageSize)")
            }
            limit = asked
        }
        let cursor = query["after"].map(String.init)
        // SQLite would read an identifier only up to a NUL, so `after=<id>%00junk` would page on.
        if let cursor, AccountFields.containsControlCharacter(cursor) {
            throw AccountFields.controlCharacter(in: "after cursor")
        }
        let users = dependencies.resolveUserRepository()
        var page = try await AuthenticationController.storage { try await users.users(after: cursor, limit: limit + 1) }
        let hasMore = page.count > limit
        if hasMore { page.removeLast(page.count - limit) }
        var response = try JSONResponse.make(page.map(UserPayload.init), status: .ok)
        if hasMore, let last = page.last {
            // Identifiers are lower-case UUIDs, safe in a URL as they are.
            response.headers[HTTPField.Name("Link")!] = "</users?after=\(last.id)&limit=\(limit)>; rel=\"next\""
        }
        return response
    }
}
