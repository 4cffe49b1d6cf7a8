import Foundation
import NIOConcurrencyHelpers

/// An attacker that keeps `connections` connections open from each of its addresses, on a
/// thread of its own (its connects and polls block): by default half-sent requests (a
/// slowloris), each reopened as soon as the server closes it; or complete keep-alive requests
/// left idle once answered. It stops when told to, after `maximumReconnects` reopenings, or
/// after a minute.
final class ReconnectingSlowloris: Sendable {
    /// A half-sent request head: the server waits for the rest.
    static let halfRequest = "POST /auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
    /// A complete request; its connection stays open, idle, after the answer.
    static let keepAliveRequest = "GET /users/me HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    private struct State {
        var opened = 0
        var answered = 0
        var failed = 0
        var reconnects = 0
        var stopRequested = false
        var finished = false
    }

    private let state = NIOLockedValueBox(State())

    /// Starts the attacker.
    /// - Parameters:
    ///   - port: The server's port.
    ///   - host: The server's address.
    ///   - sources: The attacker's own loopback addresses, such as `127.0.0.2`.
    ///   - connections: How many connections it keeps open from each address.
    ///   - request: What it sends on each connection.
    ///   - reconnects: Whether it reopens a connection the server closed.
    ///   - maximumReconnects: The most connections it reopens in all.
    init(
        port: Int,
        host: String = "127.0.0.1",
        from sources: [String],
        connections: Int,
        request: String = halfRequest,
        reconnects: Bool = true,
        maximumReconnects: Int = 3_000
    ) {
        let state = state
        let thread = Thread {
            defer { state.withLockedValue { $0.finished = true } }
            let deadline = Date().addingTimeInterval(60)
            func open(_ source: String) -> RawSocket? {
                // A short connect timeout: a server that stopped accepting must not stall the attack.
                guard let socket = try? RawSocket(port: port, host: host, from: source, timeout: 1) else {
                    state.withLockedValue { $0.failed += 1 }
                    return nil
                }
                try? socket.send(request)
                return socket
            }
            var sockets: [(source: String, socket: RawSocket?)] = []
            for _ in 0..<connections {
                for source in sources where !state.withLockedValue({ $0.stopRequested }) && Date() < deadline {
                    sockets.append((source, open(source)))
                    state.withLockedValue { $0.opened += 1 }
                }
            }
            var answered = sockets.map { $0.socket == nil }
            state.withLockedValue { $0.answered = answered.count { $0 } }
            while Date() < deadline, !state.withLockedValue({ $0.stopRequested }) {
                if reconnects {
                    for slot in sockets.indices where sockets[slot].socket?.isClosedByPeer ?? true {
                        guard state.withLockedValue({ $0.reconnects < maximumReconnects }) else { break }
                        sockets[slot].socket = nil
                        sockets[slot].socket = open(sockets[slot].source)
                        state.withLockedValue { $0.reconnects += 1 }
                    }
                } else {
                    // Read and drop the answers, so that they do not pile up unread.
                    for slot in sockets.indices {
                        guard let socket = sockets[slot].socket else { continue }
                        let (received, closed) = socket.drain()
                        if received || closed, !answered[slot] {
                            answered[slot] = true
                            state.withLockedValue { $0.answered += 1 }
                        }
                        if closed { sockets[slot].socket = nil }
                    }
                }
                usleep(20_000)
            }
        }
        thread.start()
    }

    /// Starts an attacker from one address.
    convenience init(port: Int, from source: String, connections: Int, maximumReconnects: Int = 3_000) {
        self.init(port: port, from: [source], connections: connections, maximumReconnects: maximumReconnects)
    }

    /// Waits (at most 60 seconds) until `connections` connections have been opened once.
    func waitUntilConnected(_ connections: Int) async throws {
        for _ in 0..<1200 where state.withLockedValue({ $0.opened < connections && !$0.finished }) {
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Waits (at most 60 seconds) until `connections` connections have each been answered,
    /// closed or failed to open: the server has caught up with the attack.
    func waitUntilAnswered(_ connections: Int) async throws {
        for _ in 0..<1200 where state.withLockedValue({ $0.answered < connections && !$0.finished }) {
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// How many connections failed to open (refused, reset or timed out).
    var failures: Int { state.withLockedValue { $0.failed } }

    /// Stops the attacker, closing its connections, and returns how many times it reconnected.
    func stop() async throws -> Int {
        state.withLockedValue { $0.stopRequested = true }
        for _ in 0..<200 where !state.withLockedValue({ $0.finished }) {
            try await Task.sleep(for: .milliseconds(50))
        }
        return state.withLockedValue { $0.reconnects }
    }
}
