import DependencyKit
import Foundation
import NIOConcurrencyHelpers
import Testing
import UsersAPI

/// `GET /users/me` wired through the container and wired by hand: the same answers, and the
/// hand-wired route really does without the container.
@Suite struct WiringTests {
    @Test func bothWiringsAnswerTheSameForASignedInUserAndForBadTokens() async throws {
        let container = PrivateDatabaseServerDependency()
        // Two servers on one container: the same repository, so the same users and sessions.
        try await withUsersServer(container: container, wiring: .container) { viaContainer in
            try await withUsersServer(container: container, wiring: .hand) { byHand in
                let token = try await RawHTTP.signUp("ada@example.com", name: "Ada", to: viaContainer)
                let cases: [(token: String?, status: Int)] = [
                    (token, 200),
                    (nil, 401),
                    ("not-a-token", 401),
                    (String(token.reversed()), 401),
                ]
                for (token, status) in cases {
                    let container = try await RawHTTP.send("GET", "/users/me", to: viaContainer, token: token)
                    let hand = try await RawHTTP.send("GET", "/users/me", to: byHand, token: token)
                    #expect(container.status == status)
                    #expect(hand.status == container.status)
                    #expect(hand.headers["content-type"] == container.headers["content-type"])
                    // Compared as JSON objects: the encoder's key order is not fixed.
                    #expect(try Self.fields(hand) == Self.fields(container))
                }
                // Both answer with the request's ID, the client's or a new one: the hand wiring does the
                // same per-request work as the container's.
                for server in [viaContainer, byHand] {
                    let sent = try await RawHTTP.send("GET", "/users/me", to: server, token: token, requestID: "req-7")
                    #expect(sent.headers["x-request-id"] == "req-7")
                    let made = try await RawHTTP.send("GET", "/users/me", to: server, token: token)
                    #expect(made.headers["x-request-id"].map { UUID(uuidString: $0) != nil } == true)
                }
                let me = try Self.fields(try await RawHTTP.send("GET", "/users/me", to: byHand, token: token))
                #expect(me["name"] == "Ada")
                #expect(me["email"] == "ada@example.com")
                let error = try Self.fields(try await RawHTTP.send("GET", "/users/me", to: byHand, token: nil))
                #expect(error == ["error": "missing, unknown or revoked bearer token"])
            }
        }
    }

    @Test func aRevokedTokenIsRefusedByBothWirings() async throws {
        let container = PrivateDatabaseServerDependency()
        try await withUsersServer(container: container, wiring: .container) { viaContainer in
            try await withUsersServer(container: container, wiring: .hand) { byHand in
                let token = try await RawHTTP.signUp("ada@example.com", to: byHand)
                #expect(try await RawHTTP.send("GET", "/users/me", to: byHand, token: token).status == 200)
                #expect(try await RawHTTP.send("POST", "/auth/logout", to: byHand, token: token).status == 204)
                #expect(try await RawHTTP.send("GET", "/users/me", to: byHand, token: token).status == 401)
                #expect(try await RawHTTP.send("GET", "/users/me", to: viaContainer, token: token).status == 401)
            }
        }
    }

    @Test func theHandWiredRouteResolvesNothingFromTheContainer() async throws {
        let container = CountingServerDependency()
        try await withUsersServer(container: container, wiring: .container) { viaContainer in
            try await withUsersServer(container: container, wiring: .hand) { byHand in
                let token = try await RawHTTP.signUp("ada@example.com", to: viaContainer)

                let beforeHand = container.resolutions
                #expect(try await RawHTTP.send("GET", "/users/me", to: byHand, token: token).status == 200)
                #expect(container.resolutions == beforeHand)

                let beforeContainer = container.resolutions
                #expect(try await RawHTTP.send("GET", "/users/me", to: viaContainer, token: token).status == 200)
                // The token issuer, the clock and the repository, once each.
                #expect(container.resolutions == beforeContainer + 3)
            }
        }
    }

    private static func fields(_ reply: RawHTTP.Reply) throws -> [String: String] {
        try JSONDecoder().decode([String: String].self, from: reply.body)
    }
}

/// The private-database container, counting the resolves `GET /users/me` makes.
private final class CountingServerDependency: PrivateDatabaseServerDependency, @unchecked Sendable {
    private let count = NIOLockedValueBox(0)
    var resolutions: Int { count.withLockedValue { $0 } }

    override func resolveTokenIssuer() -> any TokenIssuer {
        count.withLockedValue { $0 += 1 }
        return super.resolveTokenIssuer()
    }

    override func resolveClock() -> any WallClock {
        count.withLockedValue { $0 += 1 }
        return super.resolveClock()
    }

    override func resolveUserRepository() -> any UserRepository {
        count.withLockedValue { $0 += 1 }
        return super.resolveUserRepository()
    }
}
