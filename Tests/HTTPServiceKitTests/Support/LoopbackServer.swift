import Foundation
import TestSupport
import Testing

@testable import HTTPServiceKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 over real sockets, with one canned reply, for tests that
/// need a misbehaving peer: a gzip bomb, a server that never answers, one that echoes a request.
///
/// Made only by ``withLoopbackServer(_:_:)``, which stops it on every path out of the test's body
/// and waits for its threads. The listening thread polls with a short timeout, so it sees a stop
/// without a connection to wake it; each connection is served on its own thread, woken from a
/// blocked read or write by a shutdown of its socket.
final class LoopbackServer: Sendable {
    /// What the server does once it has read a request.
    enum Reply: Sendable {
        /// Writes `head` (status line and headers, without the blank line) and `body`, then closes.
        case fixed(head: String, body: Data)
        /// Writes `head`, then `prefix` and `unit` repeated `count` times and `suffix`, stopping
        /// early when the client goes away.
        case repeating(head: String, prefix: Data, unit: Data, count: Int, suffix: Data)
        /// Never answers; the connection stays open until ``stop()``.
        case silent
        /// Answers with `status` and `head`, and the request's own body as the response body.
        case echo(status: Int)
    }

    /// Sockets are closed only under the lock, by the thread that owns them, and shut down by
    /// ``stop()`` only under the lock, so a stop never reaches a descriptor number that another test
    /// has reused.
    private struct State {
        var connections: Set<Int32> = []
        var requests: [Data] = []
        var bodyBytesSent = 0
        var stopped = false
    }

    /// The port the server listens on.
    let port: UInt16
    private let reply: Reply
    private let state = Lock(State())
    private let threads = ThreadGroup(name: "LoopbackServer")

    /// `http://127.0.0.1:<port>`.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Every request received so far, head and body, as raw bytes.
    var requests: [Data] { state.withLock { $0.requests } }

    /// How many of the server's threads (the listener's, one per open connection) are running.
    var runningThreads: Int { threads.running }

    /// How many body bytes the server has written so far.
    var bodyBytesSent: Int { state.withLock { $0.bodyBytesSent } }

    fileprivate init(_ reply: Reply) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw ServerError.socket(errno) }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw ServerError.socket(errno)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        self.reply = reply
        threads.start { [self] in acceptLoop(listener) }
    }

    enum ServerError: Error { case socket(Int32) }

    /// Stops accepting, wakes every connection's thread (a shutdown of its socket ends a blocked
    /// read or write) and waits for every thread of the server to end.
    fileprivate func stop() async {
        state.withLock { state in
            state.stopped = true
            for connection in state.connections { shutdown(connection, Int32(SHUT_RDWR)) }
        }
        await threads.join()
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func acceptLoop(_ listener: Int32) {
        defer { close(listener) }
        while !isStopped {
            // A short poll rather than a blocking accept, so a stop is seen within 50 ms.
            var ready = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, 50)
            if polled < 0, errno != EINTR { return }
            guard polled > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR || errno == EAGAIN || errno == ECONNABORTED { continue }
                return
            }
            let accepted = state.withLock { state in
                guard !state.stopped else {
                    close(connection)
                    return false
                }
                state.connections.insert(connection)
                return true
            }
            guard accepted else { return }
            threads.start { [self] in
                serve(connection)
                state.withLock { state in
                    state.connections.remove(connection)
                    close(connection)
                }
            }
        }
    }

    private func serve(_ connection: Int32) {
        guard let request = readRequest(connection) else { return }
        state.withLock { $0.requests.append(request.head + request.body) }
        switch reply {
        case .fixed(let head, let body):
            guard write(connection, Data((head + "\r\n\r\n").utf8)) else { return }
            _ = writeBody(connection, body)
        case .repeating(let head, let prefix, let unit, let count, let suffix):
            guard write(connection, Data((head + "\r\n\r\n").utf8)), writeBody(connection, prefix) else { return }
            // Whole batches of units per write, so the peer can be flooded as fast as it reads.
            let perBatch = max(1, (64 * 1024) / max(unit.count, 1))
            var batch = Data()
            for _ in 0..<perBatch { batch.append(unit) }
            var remaining = count
            while remaining > 0 {
                let units = min(remaining, perBatch)
                guard writeBody(connection, units == perBatch ? batch : batch.prefix(units * unit.count)) else {
                    return
                }
                remaining -= units
            }
            _ = writeBody(connection, suffix)
        case .silent:
            var byte: UInt8 = 0
            while recv(connection, &byte, 1, 0) > 0 {}
        case .echo(let status):
            let head = "HTTP/1.1 \(status) Echo\r\nContent-Type: text/plain\r\nContent-Length: \(request.body.count)"
            guard write(connection, Data((head + "\r\n\r\n").utf8)) else { return }
            _ = writeBody(connection, request.body)
        }
    }

    private func writeBody(_ connection: Int32, _ data: Data) -> Bool {
        guard write(connection, data) else { return false }
        state.withLock { $0.bodyBytesSent += data.count }
        return true
    }

    private func write(_ connection: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let sent = send(connection, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0, errno == EINTR { continue }
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }

    /// Reads one request: the head up to the blank line, then `Content-Length` bytes of body.
    private func readRequest(_ connection: Int32) -> (head: Data, body: Data)? {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let separator = Data("\r\n\r\n".utf8)
        while received.range(of: separator) == nil {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            received.append(contentsOf: buffer[0..<count])
            guard received.count < 1 << 16 else { return nil }
        }
        let end = received.range(of: separator)!.upperBound
        let head = received[..<end]
        let length =
            String(decoding: head, as: UTF8.self).split(separator: "\r\n")
            .first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        var body = Data(received[end...])
        while body.count < min(length, 1 << 20) {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            body.append(contentsOf: buffer[0..<count])
        }
        return (Data(head), body)
    }
}

/// Runs `body` with a server that gives `reply`; when `body` returns or throws, stops the server
/// and waits for its threads to end (a thread still running a minute later is a test issue).
@discardableResult
func withLoopbackServer<Value>(
    _ reply: LoopbackServer.Reply,
    _ body: (LoopbackServer) async throws -> Value
) async throws -> Value {
    let server = try LoopbackServer(reply)
    let outcome: Result<Value, any Error>
    do {
        outcome = .success(try await body(server))
    } catch {
        outcome = .failure(error)
    }
    await server.stop()
    return try outcome.get()
}

/// The result of an HTTP call, so a test can match on the typed error.
func outcome<Value>(_ body: () async throws(HTTPError) -> Value) async -> Result<Value, HTTPError> {
    do { return .success(try await body()) } catch { return .failure(error) }
}
