import Foundation
import Testing
import UsersAPI

/// The server binds IPv6 loopback and every address (`::`, dual-stack), names itself with a URL
/// a client can use, and counts each IPv4 client of a dual-stack listener by its own address.
@Suite struct IPv6BindingTests {
    static let unauthenticated = "GET /users/me HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"

    @Test(arguments: ["::1", "[::1]", "0:0:0:0:0:0:0:1"])
    func ipv6LoopbackBindServesAndTheBaseURLBracketsTheHost(host: String) async throws {
        try await withUsersServer(host: host) { server in
            #expect(server.baseURL.absoluteString.hasPrefix("http://["))
            #expect(server.baseURL.absoluteString.hasSuffix("]:\(server.port)"))
            let socket = try RawSocket(port: server.port, host: "::1")
            try socket.send(Self.unauthenticated)
            #expect(await socket.reply(within: 20).hasPrefix("HTTP/1.1 401"))
        }
    }

    @Test func dualStackBindServesIPv4AndIPv6ClientsAndNamesItselfByLoopback() async throws {
        try await withUsersServer(host: "::") { server in
            #expect(server.baseURL.absoluteString == "http://[::1]:\(server.port)")
            for (host, source) in [("::1", nil), ("127.0.0.1", "127.0.0.11")] {
                let socket = try RawSocket(port: server.port, host: host, from: source)
                try socket.send(Self.unauthenticated)
                #expect(await socket.reply(within: 20).hasPrefix("HTTP/1.1 401"), "from \(source ?? host)")
            }
        }
    }

    @Test func ipv4ClientsOfADualStackBindAreCountedEachByItsOwnAddress() async throws {
        // Idle connections are never timed out here: only the per-address counts decide.
        let limits = UsersServer.Limits(
            idleTimeout: .seconds(600),
            maximumConnections: 64,
            maximumConnectionsPerAddress: 8,
            maximumPendingConnectionsPerAddress: 4
        )
        try await withUsersServer(host: "::", limits: limits) { server in
            // 127.0.0.11 takes its whole share of half-requests (they arrive as ::ffff:127.0.0.11).
            var halfRequests: [RawSocket] = []
            for _ in 0..<4 {
                let socket = try RawSocket(port: server.port, from: "127.0.0.11")
                try socket.send(ReconnectingSlowloris.halfRequest)
                halfRequests.append(socket)
            }
            // Another IPv4 client is another bucket: served.
            let other = try RawSocket(port: server.port, from: "127.0.0.12")
            try other.send(Self.unauthenticated)
            #expect(await other.reply(within: 20).hasPrefix("HTTP/1.1 401"))
            // 127.0.0.11's own bucket is full: its next connection is refused.
            let more = try RawSocket(port: server.port, from: "127.0.0.11")
            try more.send(Self.unauthenticated)
            #expect(await more.reply(within: 20).hasPrefix("HTTP/1.1 503"))
            #expect(halfRequests.allSatisfy { !$0.isClosedByPeer })
        }
    }

    @Test func hostNoURLCanNameIsRefusedBeforeBinding() async throws {
        await #expect(throws: UsersServerError.invalidHost("a b")) {
            _ = try await UsersServer.start(container: PrivateDatabaseServerDependency(), host: "a b")
        }
    }
}
