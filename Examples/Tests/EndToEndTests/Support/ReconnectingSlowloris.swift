import Foundation
import NIOConcurrencyHelpers

/// An attacker that keeps `connections` half-sent requests open from one address and reopens
/// each one as soon as the server closes it, on a thread of its own (its connects and polls
/// block). It stops when told to, after `maximumReconnects` reopenings, or after a minute.
final class ReconnectingSlowloris: Sendable {
    private struct State {
        var opened = 0
        var reconnects = 0
        var stopRequested = false
        var finished = false
    }

    private let state = NIOLockedValueBox(State())

    /// Starts the attacker.
    /// - Parameters:
    ///   - port: The server's port on 127.0.0.1.
    ///   - source: The attacker's own loopback address, such as `127.0.0.2`.
    ///   - connections: How many half-sent requests it keeps open.
    ///   - maximumReconnects: The most connections it reopens in all.
    init(port: Int, from source: String, connections: Int, maximumReconnects: Int = 3_000) {
        let state = state
        let thread = Thread {
            defer { state.withLockedValue { $0.finished = true } }
            let deadline = Date().addingTimeInterval(60)
            func open() -> RawSocket? {
                guard let socket = try? RawSocket(port: port, from: source) else { return nil }
                try? socket.send("POST /auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                return socket
            }
            var sockets: [RawSocket?] = []
            for _ in 0..<connections {
                sockets.append(open())
                state.withLockedValue { $0.opened += 1 }
            }
            while Date() < deadline, !state.withLockedValue({ $0.stopRequested }) {
                for slot in sockets.indices where sockets[slot]?.isClosedByPeer ?? true {
                    guard state.withLockedValue({ $0.reconnects < maximumReconnects }) else { break }
                    sockets[slot] = nil
                    sockets[slot] = open()
                    state.withLockedValue { $0.reconnects += 1 }
                }
                usleep(20_000)
            }
        }
        thread.start()
    }

    /// Waits (at most 30 seconds) until every connection has been opened once.
    func waitUntilConnected(_ connections: Int) async throws {
        for _ in 0..<600 where state.withLockedValue({ $0.opened < connections && !$0.finished }) {
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Stops the attacker, closing its connections, and returns how many times it reconnected.
    func stop() async throws -> Int {
        state.withLockedValue { $0.stopRequested = true }
        for _ in 0..<200 where !state.withLockedValue({ $0.finished }) {
            try await Task.sleep(for: .milliseconds(50))
        }
        return state.withLockedValue { $0.reconnects }
    }
}
