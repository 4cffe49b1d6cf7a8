import Foundation
import Testing
import UsersAPI

/// Many attacking addresses, one silent connection each and reconnecting as fast as they are
/// closed, cannot take the slot of a connection that is sending its request or of a kept-alive
/// one, nor leave a newcomer no slot to take: reopened at once, their connections are all
/// younger than the 100 ms grace a new connection has before it is taken for silent.
@Suite struct ConnectionShareTests {
    /// 100 addresses x 1 silent connection against 64 slots (the issue's 600 against 512).
    static func attack(_ server: UsersServer) async throws -> ReconnectingSlowloris {
        let sources = (1...100).map { "127.0.3.\($0)" }
        let attackers = ReconnectingSlowloris(port: server.port, from: sources, connections: 1, request: "")
        try await attackers.waitUntilConnected(100)
        return attackers
    }

    @Test func keptAliveClientKeepsItsConnectionWhileSilentAddressesChurn() async throws {
        try await withUsersServer(limits: ConnectionFairnessTests.limits) { server in
            let client = try RawSocket(port: server.port, from: "127.0.0.201", timeout: 10)
            try client.send(ReconnectingSlowloris.keepAliveRequest)
            #expect(await client.reply(within: 10).hasPrefix("HTTP/1.1 401"))
            let attackers = try await Self.attack(server)
            var answered = 0
            for _ in 0..<20 {
                try await Task.sleep(for: .milliseconds(100))
                guard (try? client.send(ReconnectingSlowloris.keepAliveRequest)) != nil else { break }
                guard await client.reply(within: 10).hasPrefix("HTTP/1.1 401") else { break }
                answered += 1
            }
            let reconnects = try await attackers.stop()
            print(
                "kept-alive client: \(answered) of 20 answered on one connection; attackers reconnected \(reconnects) times"
            )
            #expect(answered == 20)
            #expect(reconnects > 0)
        }
    }

    @Test func clientSendingItsHeadInTwoPartsIsServedWhileSilentAddressesChurn() async throws {
        try await withUsersServer(limits: ConnectionFairnessTests.limits) { server in
            let attackers = try await Self.attack(server)
            var replies: [String] = []
            for _ in 0..<10 {
                let socket = try RawSocket(port: server.port, from: "127.0.0.202", timeout: 10)
                try socket.send("GET /users/me HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                try await Task.sleep(for: .milliseconds(300))
                _ = try? socket.send("Connection: close\r\n\r\n")
                replies.append(String(await socket.reply(within: 10).prefix(12)))
            }
            let reconnects = try await attackers.stop()
            print("two-part client: \(replies.count { $0 == "HTTP/1.1 401" }) of 10 answered; replies \(Set(replies))")
            #expect(replies.allSatisfy { $0 == "HTTP/1.1 401" }, "\(replies)")
            #expect(reconnects > 0)
        }
    }

    @Test func sendingClientOverIPv6LoopbackIsServedWhileSilentConnectionsWait() async throws {
        // One /64 (::1) that holds its share of silent connections, and a client on it that
        // sends its head in two parts: a newcomer on IPv4 takes a silent slot, never the sender's.
        let limits = UsersServer.Limits(
            idleTimeout: .seconds(600), maximumConnections: 8, maximumConnectionsPerAddress: 8,
            maximumPendingConnectionsPerAddress: 8)
        try await withUsersServer(host: "::", limits: limits) { server in
            // The sender is the oldest connection, the first an oldest-first rule would take.
            let sender = try RawSocket(port: server.port, host: "::1", timeout: 10)
            try sender.send("GET /users/me HTTP/1.1\r\nHost: [::1]\r\n")
            var silent: [RawSocket] = []
            for _ in 0..<7 { silent.append(try RawSocket(port: server.port, host: "::1", timeout: 10)) }
            try await Task.sleep(for: .milliseconds(200))
            // Eight slots held: a newcomer from another address takes one, a silent one.
            let newcomer = try RawSocket(port: server.port, host: "127.0.0.1", from: "127.0.0.204", timeout: 10)
            try newcomer.send(ConnectionFairnessTests.unauthenticated)
            #expect(await newcomer.reply(within: 10).hasPrefix("HTTP/1.1 401"))
            try sender.send("Connection: close\r\n\r\n")
            #expect(await sender.reply(within: 10).hasPrefix("HTTP/1.1 401"))
            #expect(silent.count { $0.isClosedByPeer } <= 1)
        }
    }
}
