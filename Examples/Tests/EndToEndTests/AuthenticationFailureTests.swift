import AppCore
import Foundation
import Testing
import UsersAPI

@Suite struct AuthenticationFailureTests {
    @Test func wrongPasswordIsInvalidCredentialsAndLeavesTheCache() async throws {
        try await withUsersServer { server in
            let container = TestAppDependency(baseURL: server.baseURL)
            let before = try await seedCache(container)
            let authentication = container.resolveAuthenticationWorker()
            _ = try await authentication.signUp(name: "Ada", email: "ada@example.com", password: Secret("password-1"))
            await #expect(throws: AuthenticationError.invalidCredentials) {
                try await authentication.logIn(email: "ada@example.com", password: Secret("password-2"))
            }
            await #expect(throws: AuthenticationError.invalidCredentials) {
                try await authentication.logIn(email: "nobody@example.com", password: Secret("password-1"))
            }
            #expect(container.cacheFileBytes() == before)
        }
    }

    @Test func duplicateSignUpIsEmailAlreadyRegistered() async throws {
        try await withUsersServer { server in
            let container = TestAppDependency(baseURL: server.baseURL)
            let before = try await seedCache(container)
            let authentication = container.resolveAuthenticationWorker()
            _ = try await authentication.signUp(name: "Ada", email: "ada@example.com", password: Secret("password-1"))
            await #expect(throws: AuthenticationError.emailAlreadyRegistered) {
                try await authentication.signUp(
                    name: "Other",
                    email: " ADA@example.com",
                    password: Secret("password-2")
                )
            }
            #expect(container.cacheFileBytes() == before)
        }
    }

    @Test func invalidSignUpIsRejectedByTheServerWithItsReason() async throws {
        try await withUsersServer { server in
            let container = TestAppDependency(baseURL: server.baseURL)
            // Straight to the service, past the worker's own validation, so the server decides.
            let service = container.resolveAuthenticationService()
            await #expect(throws: AuthenticationError.rejected("the email address is not valid")) {
                try await service.signUp(
                    SignUpRequest(name: "Ada", email: "not-an-email", password: Secret("password-1"))
                )
            }
            await #expect(
                throws: AuthenticationError.rejected(
                    "the password must have at least 8 characters and at most 1024 bytes in UTF-8")
            ) {
                try await service.signUp(
                    SignUpRequest(name: "Ada", email: "ada@example.com", password: Secret("short"))
                )
            }
        }
    }

    @Test func missingTokenIsUnauthorized() async throws {
        try await withUsersServer { server in
            let http = TestAppDependency(baseURL: server.baseURL).resolveHTTPService()
            await #expect(throws: HTTPError.status(code: 401, body: "missing, unknown or revoked bearer token")) {
                let _: User = try await http.get("/users/me", token: nil)
            }
            await #expect(throws: HTTPError.status(code: 401, body: "missing, unknown or revoked bearer token")) {
                try await http.send("/auth/logout", body: EmptyBody(), token: nil)
            }
        }
    }

    @Test func revokedTokenIsNotAuthenticatedAndLeavesTheCache() async throws {
        try await withUsersServer { server in
            let container = TestAppDependency(baseURL: server.baseURL)
            let authentication = container.resolveAuthenticationWorker()
            let users = container.resolveUsersWorker()
            let session = try await authentication.signUp(
                name: "Ada",
                email: "ada@example.com",
                password: Secret("password-1")
            )
            let me = try await users.fetchCurrent(token: session.token)
            let before = container.cacheFileBytes()

            try await authentication.logOut(session)
            await #expect(throws: UsersError.notAuthenticated) { try await users.fetchCurrent(token: session.token) }
            await #expect(throws: UsersError.notAuthenticated) { try await users.fetchAll(token: session.token) }
            await #expect(throws: AuthenticationError.notAuthenticated) { try await authentication.logOut(session) }
            #expect(await users.cachedCurrent() == me)
            #expect(container.cacheFileBytes() == before)
        }
    }
}
