internal import Logging

// snippet: server-deep-service
/// The signed-in account's operations: two levels below the handler, it gets the request's account
/// and log from the container, not from the handler's parameters.
public struct AccountService: Sendable {
    let user: UserRecord?
    let log: Logger

    /// The request's signed-in account.
    /// - Throws: A 401 ``APIError`` when the request has none.
    func signedInUser() throws -> UserRecord {
        guard let user else {
            log.info("refused: no live session")
            throw APIError.notAuthenticated
        }
        log.debug("signed in", metadata: ["user": "\(user.id)"])
        return user
    }
}
// end-snippet

/// What `GET /users/me` answers: the handler's one resolve, above ``AccountService``.
public struct ProfileService: Sendable {
    let accounts: AccountService

    /// The signed-in account.
    /// - Throws: A 401 ``APIError`` when the request has none.
    func current() throws -> UserRecord { try accounts.signedInUser() }
}
