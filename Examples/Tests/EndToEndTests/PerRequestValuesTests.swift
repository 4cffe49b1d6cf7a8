import DependencyKit
import Foundation
import Testing
import UsersAPI

/// Issue 48 on a live server: every request has its own ID and signed-in account in effect
/// (``RequestValuesMiddleware``), and the repository is the app's (`appShared {}`), under real
/// requests on loopback, one after another and many at once.
@Suite struct PerRequestValuesTests {
    @Test func everyAccountSignedUpPerRequestIsInTheAppsRepositoryAndEveryRequestSeesOnlyItsOwnValues()
        async throws
    {
        try await withUsersServer(container: FastServerDependency()) { server in
            var tokens: [(email: String, token: String)] = []
            for index in 0..<100 {
                let email = "seq\(index)@example.com"
                let reply = try await Self.signUp(email, requestID: "seq-\(index)", to: server)
                #expect(reply.status == 201)
                #expect(reply.headers["x-request-id"] == "seq-\(index)")
                tokens.append((email, try Self.token(of: reply)))
            }
            let concurrent = try await withThrowingTaskGroup(of: (String, String, Bool).self) { group in
                for index in 0..<120 {
                    group.addTask {
                        let email = "par\(index)@example.com"
                        let reply = try await Self.signUp(email, requestID: "par-\(index)", to: server)
                        let own = reply.status == 201 && reply.headers["x-request-id"] == "par-\(index)"
                        return (email, try Self.token(of: reply), own)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(concurrent.filter { !$0.2 }.isEmpty)
            tokens += concurrent.map { ($0.0, $0.1) }
            // snippet: server-per-request-test
            // In later requests, all at once: every account is there (nothing lost), and each request's
            // signed-in account, read two levels below the handler, is its own token's (nothing crossed).
            let crossedOrLost = try await withThrowingTaskGroup(of: Int.self) { group in
                for (index, account) in tokens.enumerated() {
                    group.addTask {
                        let reply = try await RawHTTP.send(
                            "GET", "/users/me", to: server, token: account.token, requestID: "me-\(index)")
                        let fields = try JSONDecoder().decode([String: String].self, from: reply.body)
                        let own = reply.status == 200 && fields["email"] == account.email
                        return own && reply.headers["x-request-id"] == "me-\(index)" ? 0 : 1
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(tokens.count == 220)
            #expect(crossedOrLost == 0)
            // end-snippet
        }
    }

    @Test func aRequestWithoutAnIDGetsANewOneAndOneWithoutATokenHasNoAccount() async throws {
        try await withUsersServer(container: FastServerDependency()) { server in
            let json = ["name": "Ada", "email": "ada@example.com", "password": "password-1"]
            let first = try await RawHTTP.send("POST", "/auth/signup", to: server, json: json)
            let second = try await RawHTTP.send("POST", "/auth/login", to: server, json: json)
            #expect(first.status == 201 && second.status == 200)
            let ids = [first.headers["x-request-id"], second.headers["x-request-id"]].compactMap { $0 }
            #expect(ids.count == 2 && ids[0] != ids[1] && ids.allSatisfy { $0.count == 36 })
            #expect(try await RawHTTP.send("GET", "/users/me", to: server).status == 401)
        }
    }

    static func signUp(_ email: String, requestID: String, to server: UsersServer) async throws -> RawHTTP.Reply {
        try await RawHTTP.send(
            "POST", "/auth/signup", to: server,
            json: ["name": "Per Request", "email": email, "password": "password-1"], requestID: requestID)
    }

    static func token(of reply: RawHTTP.Reply) throws -> String {
        let object = try JSONSerialization.jsonObject(with: reply.body) as? [String: Any]
        return try #require(object?["token"] as? String)
    }
}
