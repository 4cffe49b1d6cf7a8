import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP connection to 127.0.0.1 driven byte by byte, for clients no HTTP library imitates:
/// half-open connections, HTTP/1.0.
final class RawSocket {
    let descriptor: Int32

    /// Connects to `port` on 127.0.0.1.
    /// - Parameters:
    ///   - port: The server's port.
    ///   - source: The local address to connect from. Linux routes all of 127.0.0.0/8 to the
    ///     loopback interface, so `127.0.0.2` is a second peer address on the same machine.
    init(port: Int, from source: String? = nil) throws {
        defer {
            #if canImport(Darwin)
                var on: Int32 = 1
                setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
            #endif
        }
        #if canImport(Glibc)
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure(operation: "socket", code: errno) }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                let code = errno
                close(descriptor)
                throw Failure(operation: "bind \(source)", code: code)
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(descriptor)
            throw Failure(operation: "connect", code: code)
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
    static func waitUntilClosed(_ sockets: [RawSocket], within seconds: Double) async -> (
        received: [String], closed: [Bool]
    ) {
        let descriptors = sockets.map(\.descriptor)
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: blockingWait(descriptors, within: seconds))
            }
            thread.start()
        }
    }

    private static func blockingWait(_ sockets: [Int32], within seconds: Double) -> (received: [String], closed: [Bool])
    {
        var received = [[UInt8]](repeating: [], count: sockets.count)
        var closed = [Bool](repeating: false, count: sockets.count)
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while closed.contains(false), Date() < deadline {
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
