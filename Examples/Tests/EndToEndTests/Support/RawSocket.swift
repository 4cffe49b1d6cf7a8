import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP connection on loopback driven byte by byte, for clients no HTTP library imitates:
/// half-open connections, HTTP/1.0, many peer addresses, IPv6.
final class RawSocket {
    let descriptor: Int32

    /// Connects to `port` on `host`.
    /// - Parameters:
    ///   - port: The server's port.
    ///   - host: The server's address: `127.0.0.1` by default, or an IPv6 address such as `::1`.
    ///   - source: The local address to connect from. Linux routes all of 127.0.0.0/8 to the
    ///     loopback interface, so `127.0.0.2` is a second peer address on the same machine.
    ///   - timeout: How long to wait for the connection, in seconds: a server that stopped
    ///     accepting leaves connections in its listen backlog, and once that is full, waiting
    ///     for it would take minutes.
    init(port: Int, host: String = "127.0.0.1", from source: String? = nil, timeout: Double = 30) throws {
        let family = host.contains(":") ? AF_INET6 : AF_INET
        #if canImport(Glibc)
            descriptor = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        #else
            descriptor = socket(family, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure(operation: "socket", code: errno) }
        #if canImport(Darwin)
            var on: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        do {
            if let source {
                try Self.withAddress(source, port: 0) { address, length in
                    guard bind(descriptor, address, length) == 0 else {
                        throw Failure(operation: "bind \(source)", code: errno)
                    }
                }
            }
            try Self.withAddress(host, port: port) { address, length in
                try connect(address, length, timeout: timeout)
            }
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// Connects without blocking for longer than `timeout`, then makes the socket blocking again.
    private func connect(_ address: UnsafePointer<sockaddr>, _ length: socklen_t, timeout: Double) throws {
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(descriptor, F_SETFL, flags) }
        #if canImport(Glibc)
            let result = Glibc.connect(descriptor, address, length)
        #else
            let result = Darwin.connect(descriptor, address, length)
        #endif
        if result == 0 { return }
        guard errno == EINPROGRESS else { throw Failure(operation: "connect", code: errno) }
        var probe = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        guard poll(&probe, 1, Int32(timeout * 1000)) == 1 else { throw Failure(operation: "connect", code: ETIMEDOUT) }
        var code: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &size)
        guard code == 0 else { throw Failure(operation: "connect", code: code) }
    }

    /// Calls `body` with `host` and `port` as a socket address of the host's family.
    private static func withAddress(
        _ host: String, port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Void
    ) throws {
        if host.contains(":") {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else {
                throw Failure(operation: "address \(host)", code: EINVAL)
            }
            try withUnsafePointer(to: &address) {
                try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    try body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
                throw Failure(operation: "address \(host)", code: EINVAL)
            }
            try withUnsafePointer(to: &address) {
                try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    try body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    deinit { close(descriptor) }

    /// Whether the server has closed (or reset) the connection, without waiting; data it sent
    /// is read and dropped.
    var isClosedByPeer: Bool {
        var probe = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&probe, 1, 0) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Reads and drops whatever the server sent, without waiting.
    /// - Returns: Whether anything arrived, and whether the server closed (or reset) the connection.
    func drain() -> (received: Bool, closed: Bool) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var received = false
        while true {
            let count = buffer.withUnsafeMutableBytes {
                recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
            }
            if count > 0 {
                received = true
                continue
            }
            return (received, count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
        }
    }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            // MSG_NOSIGNAL: a connection the server closed is an error here, not SIGPIPE.
            #if canImport(Glibc)
                let written = bytes[sent...].withUnsafeBytes {
                    Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
            #else
                let written = bytes[sent...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            #endif
            guard written > 0 else { throw Failure(operation: "write", code: errno) }
            sent += written
        }
    }

    /// Sends `text` a byte at a time, `interval` apart, until the server closes the connection
    /// or the text runs out.
    /// - Returns: Whether the server closed the connection.
    func trickle(_ text: String, every interval: Duration) async throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        for byte in Array(text.utf8) {
            var one = byte
            #if canImport(Glibc)
                let sent = Glibc.send(descriptor, &one, 1, Int32(MSG_NOSIGNAL))
            #else
                let sent = Darwin.send(descriptor, &one, 1, 0)
            #endif
            if sent < 0 { return true }
            try await Task.sleep(for: interval)
            var probe = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&probe, 1, 0) > 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count <= 0 { return true }
            }
        }
        return false
    }

    /// Reads one whole response (its head, and a body as long as its `Content-Length`), or
    /// until the server closes the connection or `seconds` pass, on a thread of its own (see
    /// ``waitUntilClosed(_:within:)``).
    /// - Returns: What was read; empty when nothing came.
    func reply(within seconds: Double) async -> String {
        let descriptor = descriptor
        return await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: Self.blockingReply(descriptor, within: seconds)) }.start()
        }
    }

    private static func blockingReply(_ descriptor: Int32, within seconds: Double) -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let text = String(decoding: received, as: UTF8.self)
            if let end = text.range(of: "\r\n\r\n") {
                let head = text[..<end.lowerBound].lowercased()
                let length =
                    head.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if text[end.upperBound...].utf8.count >= length { return text }
            }
            var probe = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&probe, 1, 100) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Reads until the server closes the connection or `seconds` pass.
    /// - Returns: What was read, and whether the server closed the connection.
    func readUntilClosed(within seconds: Double) async -> (received: String, closed: Bool) {
        let outcome = await RawSocket.waitUntilClosed([self], within: seconds)
        return (outcome.received[0], outcome.closed[0])
    }

    /// Reads from every socket until each is closed by the server or `seconds` pass.
    ///
    /// The waiting happens on a thread of its own: blocking a thread of the concurrency pool
    /// would starve the in-process server's request handlers.
    /// - Parameter anyOne: Stop as soon as one socket is closed, rather than all.
    static func waitUntilClosed(_ sockets: [RawSocket], within seconds: Double, anyOne: Bool = false) async -> (
        received: [String], closed: [Bool]
    ) {
        let descriptors = sockets.map(\.descriptor)
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: blockingWait(descriptors, within: seconds, anyOne: anyOne))
            }
            thread.start()
        }
    }

    private static func blockingWait(
        _ sockets: [Int32], within seconds: Double, anyOne: Bool
    ) -> (received: [String], closed: [Bool]) {
        var received = [[UInt8]](repeating: [], count: sockets.count)
        var closed = [Bool](repeating: false, count: sockets.count)
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while closed.contains(false), !(anyOne && closed.contains(true)), Date() < deadline {
            var polls = sockets.indices.filter { !closed[$0] }.map {
                pollfd(fd: sockets[$0], events: Int16(POLLIN), revents: 0)
            }
            let indices = sockets.indices.filter { !closed[$0] }
            let ready = poll(&polls, nfds_t(polls.count), 200)
            guard ready > 0 else { continue }
            for (slot, index) in indices.enumerated() where polls[slot].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(sockets[index], $0.baseAddress, $0.count) }
                if count > 0 {
                    received[index] += buffer[..<count]
                } else {
                    // 0 is an orderly close; an error (a reset) is a close too.
                    closed[index] = true
                }
            }
        }
        return (received.map { String(decoding: $0, as: UTF8.self) }, closed)
    }

    struct Failure: Error {
        let operation: String
        let code: Int32
    }
}
