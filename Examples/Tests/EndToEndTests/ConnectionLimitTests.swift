import Foundation
import Testing
import UsersAPI

/// Connections that never finish a request are closed, so they cannot hold the server's
/// connection slots (and file descriptors) and lock legitimate clients out.
@Suite struct ConnectionLimitTests {
    static let limits = UsersServer.Limits(
        idleTimeout: .seconds(1),
        maximumConnections: 16,
        maximumConnectionsPerAddress: 64,
        maximumPendingConnectionsPerAddress: 64
    )

    @Test func reconnectingSlowlorisFromOneAddressLeavesRoomForAnotherAddress() async throws {
        // Idle connections are never timed out here: only the per-address limits make room.
        let limits = UsersServer.Limits(
            idleTimeout: .seconds(600),
            maximumConnections: 16,
            maximumConnectionsPerAddress: 8,
            maximumPendingConnectionsPerAddress: 4
        )
        try await withUsersServer(limits: limits) { server in
            // More half-requests than the server has slots, each reopened as soon as it closes.
            let attacker = ReconnectingSlowloris(port: server.port, from: "127.0.0.2", connections: 24)
            try await attacker.waitUntilConnected(24)
            var answered = 0
            for _ in 0..<5 {
                let socket = try RawSocket(port: server.port)
                try socket.send("GET /users/me HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                // A bounded wait, not a timing: without the limit no answer ever comes.
                let outcome = await socket.readUntilClosed(within: 10)
                guard outcome.received.hasPrefix("HTTP/1.1 401") else { break }
                answered += 1
            }
            let reconnects = try await attacker.stop()
            #expect(answered == 5)
            // The attacker was refused and came back: the refusals, not a lull, let the client in.
            #expect(reconnects > 0)
        }
    }

    @Test func halfOpenConnectionsAreClosedAndALegitimateRequestStillSucceeds() async throws {
        try await withUsersServer(limits: Self.limits) { server in
            // Three times the connection limit: the first 16 fill every slot, the rest wait in
            // the listen backlog. Each sends a partial request head and then nothing (slowloris).
            // From an address of their own, so the per-address limit does not also refuse the
            // legitimate client below: this test is about the idle timeout.
            var attackers: [RawSocket] = []
            for _ in 0..<48 {
                let socket = try RawSocket(port: server.port, from: "127.0.0.2")
                try socket.send("POST /auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                attackers.append(socket)
            }
            // Queued behind all of them, a real client still gets through once they are cut off
            // (or their address, over its share, gives up a slot), retrying as `503` asks.
            var signedUp: String?
            for _ in 0..<20 where signedUp == nil {
                do {
                    signedUp = try await RawHTTP.signUp("legit@example.com", to: server)
                } catch {
                    try await Task.sleep(for: .milliseconds(500))
                }
            }
            let token = try #require(signedUp)
            #expect(try await RawHTTP.send("GET", "/users/me", to: server, token: token).status == 200)
            // Generous bound, far above the 1 s idle timeout: without the timeout none closes.
            let outcome = await RawSocket.waitUntilClosed(attackers, within: 30)
            #expect(outcome.closed.filter { $0 }.count == attackers.count)
        }
    }

    @Test func bodyTrickledAByteAtATimeIsCutOffAtTheReadDeadline() async throws {
        let limits = UsersServer.Limits(idleTimeout: .seconds(1), requestReadTimeout: .seconds(2))
        try await withUsersServer(limits: limits) { server in
            let socket = try RawSocket(port: server.port)
            let body = #"{"name":"Slow","email":"slow@example.com","password":"password-1"}"#
            try socket.send(
                "POST /auth/signup HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.utf8.count)\r\n\r\n"
            )
            // Each byte comes well inside the idle timeout; all of them would take 20 seconds.
            #expect(try await socket.trickle(body, every: .milliseconds(300)))
        }
    }

    /// What bounds how long a connection counts as sending: the idle timeout, which only a
    /// complete head stops.
    @Test func headTrickledAByteAtATimeIsCutOffAtTheIdleTimeout() async throws {
        let limits = UsersServer.Limits(idleTimeout: .seconds(1))
        try await withUsersServer(host: "::1", limits: limits) { server in
            let socket = try RawSocket(port: server.port, host: "::1")
            // Each byte well inside the idle timeout; the whole head would take 8 seconds.
            let head = "GET /users/me HTTP/1.1\r\nHost: [::1]\r\nX-Slow: " + String(repeating: "a", count: 40)
            #expect(try await socket.trickle(head + "\r\n\r\n", every: .milliseconds(100)))
        }
    }

    @Test func connectionIdleAfterAResponseIsClosed() async throws {
        try await withUsersServer(limits: Self.limits) { server in
            let socket = try RawSocket(port: server.port)
            try socket.send("GET /users/me HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let outcome = await socket.readUntilClosed(within: 30)
            #expect(outcome.received.hasPrefix("HTTP/1.1 401"))
            #expect(outcome.closed)
        }
    }

    @Test func http10RequestWithoutKeepAliveIsClosedAfterTheReply() async throws {
        // A long idle timeout, so only the HTTP/1.0 rule can close the connection in time.
        try await withUsersServer(limits: UsersServer.Limits(idleTimeout: .seconds(600))) { server in
            let socket = try RawSocket(port: server.port)
            try socket.send("GET /users/me HTTP/1.0\r\n\r\n")
            let outcome = await socket.readUntilClosed(within: 20)
            #expect(outcome.received.contains(" 401 "))
            #expect(outcome.received.contains("missing, unknown or revoked bearer token"))
            #expect(outcome.closed)
        }
    }

    @Test func http10KeepAliveRequestIsAnsweredWithKeepAliveAndTheConnectionServesTheNext() async throws {
        // `ab -k`: HTTP/1.0 with `Connection: Keep-Alive`. The reply must say keep-alive, or the
        // client cannot tell the connection stays open and waits for it to close.
        try await withUsersServer(limits: UsersServer.Limits(idleTimeout: .seconds(600))) { server in
            let socket = try RawSocket(port: server.port)
            try socket.send(
                "GET /users/me HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n" + "GET /users/me HTTP/1.0\r\n\r\n"
            )
            let outcome = await socket.readUntilClosed(within: 20)
            let replies = outcome.received.components(separatedBy: "HTTP/1.1 401").dropFirst()
            #expect(replies.count == 2)
            let heads = replies.map { $0.components(separatedBy: "\r\n\r\n")[0].lowercased() }
            #expect(heads.first?.contains("\r\nconnection: keep-alive") == true)
            #expect(heads.first?.contains("content-length: ") == true)
            #expect(heads.last?.contains("connection: keep-alive") == false)
            // The second request did not ask to keep the connection: it closes after its reply.
            #expect(outcome.closed)
        }
    }

    @Test func http11RequestKeepsTheConnectionForTheNextRequest() async throws {
        try await withUsersServer(limits: UsersServer.Limits(idleTimeout: .seconds(600))) { server in
            let socket = try RawSocket(port: server.port)
            try socket.send(
                "GET /users/me HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                    + "GET /users/me HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            )
            let outcome = await socket.readUntilClosed(within: 20)
            #expect(outcome.received.components(separatedBy: "HTTP/1.1 401").count == 3)
            #expect(outcome.closed)
        }
    }
}
