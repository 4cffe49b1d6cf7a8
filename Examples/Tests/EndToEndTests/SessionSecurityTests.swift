import Foundation
import Testing
import UsersAPI

@Suite struct SessionSecurityTests {
    @Test func unknownEmailCostsTheSameHashingAsAWrongPassword() async throws {
        let container = ObservedServerDependency()
        try await withUsersServer(container: container) { server in
            _ = try await RawHTTP.signUp("ada@example.com", to: server)
            let afterSignUp = container.hasher.derivations

            let wrongPassword = try await RawHTTP.send(
                "POST",
                "/auth/login",
                to: server,
                json: ["email": "ada@example.com", "password": "password-2"]
            )
            let forWrongPassword = container.hasher.derivations - afterSignUp
            let unknownEmail = try await RawHTTP.send(
                "POST",
                "/auth/login",
                to: server,
                json: ["email": "nobody@example.com", "password": "password-2"]
            )
            let forUnknownEmail = container.hasher.derivations - afterSignUp - forWrongPassword

            #expect(wrongPassword.status == 401)
            #expect(unknownEmail.status == 401)
            #expect(unknownEmail.body == wrongPassword.body)
            #expect(forWrongPassword == 1)
            #expect(forUnknownEmail == forWrongPassword)
        }
    }

    @Test func sessionExpiresAfterItsLifetime() async throws {
        let container = ObservedServerDependency()
        try await withUsersServer(container: container) { server in
            let token = try await RawHTTP.signUp("ada@example.com", to: server)
            let lifetime = Double(container.resolveSessionPolicy().lifetime.components.seconds)
            container.clock.advance(by: lifetime - 1)
            #expect(try await RawHTTP.send("GET", "/users/me", to: server, token: token).status == 200)
            container.clock.advance(by: 2)
            #expect(try await RawHTTP.send("GET", "/users/me", to: server, token: token).status == 401)
            #expect(try await RawHTTP.send("POST", "/auth/logout", to: server, token: token).status == 401)
        }
    }

    @Test func newLogInRevokesTheUsersEarlierSessions() async throws {
        try await withUsersServer { server in
            let first = try await RawHTTP.signUp("ada@example.com", to: server)
            let other = try await RawHTTP.signUp("grace@example.com", to: server)
            let login = try await RawHTTP.send(
                "POST",
                "/auth/login",
                to: server,
                json: ["email": "ada@example.com", "password": "password-1"]
            )
            #expect(login.status == 200)
            let second = try #require(
                (try JSONSerialization.jsonObject(with: login.body) as? [String: Any])?["token"] as? String
            )
            #expect(try await RawHTTP.send("GET", "/users/me", to: server, token: first).status == 401)
            #expect(try await RawHTTP.send("GET", "/users/me", to: server, token: second).status == 200)
            // Another user's session is untouched.
            #expect(try await RawHTTP.send("GET", "/users/me", to: server, token: other).status == 200)
        }
    }
}
