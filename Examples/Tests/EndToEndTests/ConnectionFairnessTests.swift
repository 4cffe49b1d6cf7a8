import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import Testing
import UsersAPI

/// Many attacking addresses, each within its own share, cannot keep a client at another
/// address waiting; and a connection the server will not take is told so, with `503` and
/// `Retry-After`, instead of being cut off.
@Suite struct ConnectionFairnessTests {
    static let unauthenticated = "GET /users/me HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"

    /// Idle connections are never timed out here: only admission can make room.
    static let limits = UsersServer.Limits(
        idleTimeout: .seconds(600),
        maximumConnections: 64,
        maximumConnectionsPerAddress: 8,
        maximumPendingConnectionsPerAddress: 4
    )

    /// Sends a request from `source` on a new connection and returns the answer and how long it
    /// took from connecting to the end of the answer.
    static func timedRequest(port: Int, from source: String) async throws -> (reply: String, seconds: Double) {
        let started = ContinuousClock.now
        let socket = try RawSocket(port: port, from: source, timeout: 10)
        try socket.send(unauthenticated)
        // A bounded wait, not a timing: without room made for it, no answer comes in 10 minutes.
        // Until the server closes (the request says `Connection: close`): the next request's
        // connection then does not meet this one still open, as a second from the same address.
        let reply = await socket.readUntilClosed(within: 10).received
        let elapsed = ContinuousClock.now - started
        return (reply, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// The issue's bound is 1 s; the slowest of five requests may take up to 3 s, on a machine
    /// whose two cores also run the attackers' 100-odd reconnecting sockets and other builds.
    /// Without the fix every request waits for the 600 s idle timeout, and fails all of these.
    static func expectServedPromptly(_ results: [(reply: String, seconds: Double)]) {
        for result in results {
            #expect(result.reply.hasPrefix("HTTP/1.1 401"), "\(result.reply.prefix(80))")
        }
        let times = results.map(\.seconds).sorted()
        print("served in: \(results.map { String(format: "%.3f s", $0.seconds) }.joined(separator: ", "))")
        #expect(times[times.count / 2] < 1, "times: \(times)")
        #expect(times.last ?? .infinity < 3, "times: \(times)")
    }

    @Test func clientAtAnotherAddressIsServedWithinASecondWhile25AddressesHoldTheirShareOfHalfRequests()
        async throws
    {
        try await withUsersServer(limits: Self.limits) { server in
            // 25 addresses x 4 half-requests, each reopened as soon as it is closed: 100 > 64 slots.
            let sources = (1...25).map { "127.0.1.\($0)" }
            let attackers = ReconnectingSlowloris(port: server.port, from: sources, connections: 4)
            try await attackers.waitUntilConnected(100)
            var results: [(reply: String, seconds: Double)] = []
            for _ in 0..<5 {
                results.append(try await Self.timedRequest(port: server.port, from: "127.0.0.200"))
            }
            let reconnects = try await attackers.stop()
            Self.expectServedPromptly(results)
            // The attack went on throughout: its connections were refused or reclaimed and came back.
            #expect(reconnects > 0)
        }
    }

    @Test func clientAtAnotherAddressIsServedWithinASecondWhile1024IdleConnectionsAreOpen() async throws {
        // The default limits (512 slots, 64 per address), against 16 addresses x 64 kept-alive
        // connections, each answered once and then left idle.
        let limits = UsersServer.Limits(idleTimeout: .seconds(600))
        try await withUsersServer(limits: limits) { server in
            let sources = (1...16).map { "127.0.2.\($0)" }
            let idle = ReconnectingSlowloris(
                port: server.port, from: sources, connections: 64,
                request: ReconnectingSlowloris.keepAliveRequest, reconnects: false)
            try await idle.waitUntilConnected(1024)
            // Every one answered (or its slot taken): the idle connections are open, not arriving.
            try await idle.waitUntilAnswered(1024)
            var results: [(reply: String, seconds: Double)] = []
            for _ in 0..<5 {
                results.append(try await Self.timedRequest(port: server.port, from: "127.0.0.250"))
            }
            _ = try await idle.stop()
            Self.expectServedPromptly(results)
        }
    }

    @Test func connectionPastItsAddressShareIsAnswered503WithRetryAfter() async throws {
        try await withUsersServer(limits: Self.limits) { server in
            // 127.0.0.7 holds its 8 connections, idle after one answer each.
            var held: [RawSocket] = []
            for _ in 0..<8 {
                let socket = try RawSocket(port: server.port, from: "127.0.0.7")
                try socket.send(ReconnectingSlowloris.keepAliveRequest)
                #expect(await socket.reply(within: 20).hasPrefix("HTTP/1.1 401"))
                held.append(socket)
            }
            let refused = try RawSocket(port: server.port, from: "127.0.0.7")
            try refused.send(Self.unauthenticated)
            let outcome = await refused.readUntilClosed(within: 20)
            Self.expect503(outcome.received, saying: "too many connections from your address")
            #expect(outcome.closed)
            // Another address is not affected.
            #expect(try await Self.timedRequest(port: server.port, from: "127.0.0.9").reply.hasPrefix("HTTP/1.1 401"))
            #expect(held.allSatisfy { !$0.isClosedByPeer })
        }
    }

    @Test func halfRequestPastItsAddressShareIsAnswered503WithRetryAfter() async throws {
        try await withUsersServer(limits: Self.limits) { server in
            // Five half-requests from one address whose pending share is four. The server admits
            // connections on several event loops, so which of the five is past the share is the order it
            // admits them in, not the order they were opened in: exactly one is refused, four stay open.
            var sockets: [RawSocket] = []
            for _ in 0..<5 {
                let socket = try RawSocket(port: server.port, from: "127.0.0.8")
                try socket.send(ReconnectingSlowloris.halfRequest)
                sockets.append(socket)
            }
            let outcome = await RawSocket.waitUntilClosed(sockets, within: 20, anyOne: true)
            let refused = outcome.closed.indices.filter { outcome.closed[$0] }
            #expect(refused.count == 1, "closed: \(outcome.closed)")
            if let index = refused.first {
                Self.expect503(outcome.received[index], saying: "too many connections from your address")
            }
            #expect(sockets.indices.filter { !refused.contains($0) }.allSatisfy { !sockets[$0].isClosedByPeer })
        }
    }

    @Test func newcomerWhenEverySlotIsAnsweringARequestIsAnswered503WithRetryAfter() async throws {
        let arrived = NIOLockedValueBox(0)
        let released = NIOLockedValueBox(false)
        let limits = UsersServer.Limits(
            idleTimeout: .seconds(600), maximumConnections: 2, retryAfter: .milliseconds(2_500))
        // A route that answers only when released: every slot is busy until then.
        let holdRoute: (Router<BasicRequestContext>) -> Void = { router in
            router.get("hold") { _, _ -> String in
                arrived.withLockedValue { $0 += 1 }
                while !released.withLockedValue({ $0 }) { try await Task.sleep(for: .milliseconds(20)) }
                return "released"
            }
        }
        try await withUsersServer(limits: limits, configureRouter: holdRoute) { server in
            var holders: [RawSocket] = []
            for source in ["127.0.0.3", "127.0.0.4"] {
                let socket = try RawSocket(port: server.port, from: source)
                try socket.send("GET /hold HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                holders.append(socket)
            }
            for _ in 0..<400 where arrived.withLockedValue({ $0 < 2 }) {
                try await Task.sleep(for: .milliseconds(50))
            }
            let refused = try RawSocket(port: server.port, from: "127.0.0.5")
            try refused.send(Self.unauthenticated)
            let outcome = await refused.readUntilClosed(within: 20)
            Self.expect503(outcome.received, saying: "the server is busy", retryAfter: 3)
            #expect(outcome.closed)
            // The requests in flight were not disturbed.
            released.withLockedValue { $0 = true }
            for holder in holders {
                #expect(await holder.reply(within: 20).hasPrefix("HTTP/1.1 200"))
            }
        }
    }

    static func expect503(_ reply: String, saying message: String, retryAfter: Int = 1) {
        let head = reply.components(separatedBy: "\r\n\r\n")[0].lowercased()
        #expect(reply.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"), "\(reply.prefix(80))")
        #expect(head.contains("\r\nretry-after: \(retryAfter)\r\n") || head.hasSuffix("\r\nretry-after: \(retryAfter)"))
        #expect(head.contains("\r\nconnection: close"))
        #expect(reply.contains(message))
    }
}
