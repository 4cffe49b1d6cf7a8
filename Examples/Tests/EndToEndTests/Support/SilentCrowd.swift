import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Connections that are opened and then say nothing and read nothing: each a non-blocking
/// connect from one of many loopback addresses, left to the kernel to complete whenever the
/// server's listen queue has room. Every socket is closed by ``close()`` or, at the latest,
/// when the crowd is released.
final class SilentCrowd {
    private var descriptors: [Int32] = []

    /// Opens `perAddress` connections from each of `sources` to `port` on `host`, without
    /// waiting for any to complete.
    init(port: Int, host: String = "127.0.0.1", from sources: [String], perAddress: Int) throws {
        do {
            for _ in 0..<perAddress {
                for source in sources {
                    descriptors.append(try Self.open(port: port, host: host, from: source))
                }
            }
        } catch {
            close()
            throw error
        }
    }

    /// How many connections the kernel has completed (the server's queue took them).
    var established: Int {
        var polls = descriptors.map { pollfd(fd: $0, events: Int16(POLLOUT), revents: 0) }
        _ = poll(&polls, nfds_t(polls.count), 0)
        return polls.count { $0.revents & Int16(POLLOUT) != 0 }
    }

    /// How many connections the server has answered (its `503`) or closed: it has taken them
    /// off its listen queue and turned them away.
    var answered: Int {
        var polls = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        _ = poll(&polls, nfds_t(polls.count), 0)
        return polls.count { $0.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 }
    }

    /// Closes every connection.
    func close() {
        for descriptor in descriptors {
            #if canImport(Glibc)
                _ = Glibc.close(descriptor)
            #else
                _ = Darwin.close(descriptor)
            #endif
        }
        descriptors = []
    }

    deinit { close() }

    private static func open(port: Int, host: String, from source: String) throws -> Int32 {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw RawSocket.Failure(operation: "socket", code: errno) }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        func address(_ text: String, port: Int) -> sockaddr_in {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            _ = inet_pton(AF_INET, text, &address.sin_addr)
            return address
        }
        var local = address(source, port: 0)
        var remote = address(host, port: port)
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, length) }
        }
        guard bound == 0, connected == 0 || errno == EINPROGRESS else {
            let code = errno
            #if canImport(Glibc)
                _ = Glibc.close(descriptor)
            #else
                _ = Darwin.close(descriptor)
            #endif
            throw RawSocket.Failure(operation: "connect from \(source)", code: code)
        }
        return descriptor
    }
}
