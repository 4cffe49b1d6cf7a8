#if canImport(FoundationNetworking) && canImport(Glibc)
    import Foundation
    import Glibc

    /// Ends a body transfer from inside the transport's own callback, so that a refused body is
    /// not decoded to its end (Linux).
    ///
    /// FoundationNetworking hands the delegate each chunk libcurl decodes from inside libcurl's
    /// read loop, which reads up to a hundred 16 KiB buffers from the socket per pass while data
    /// is waiting; `URLSessionTask.cancel()` waits for that pass to end. A 16 KiB buffer of a gzip
    /// bomb decodes to 16 MiB, so a cancelled bomb went on decoding for up to 1.6 GiB (seconds of
    /// CPU) before the cancellation was even seen. The one way to end the pass sooner is for
    /// libcurl's next read to fail.
    ///
    /// This disconnects the task's socket the way Linux documents for TCP (connect(2) with
    /// `AF_UNSPEC`): the kernel drops the unread data and resets the connection, while the
    /// descriptor stays open, and registered with the event loop that watches it, so no
    /// descriptor number is freed under libcurl. libcurl's next read fails at once; the pass
    /// ends after the buffer being decoded (at most 16 MiB decoded), and the task completes with
    /// the loader's ``HTTPError/responseTooLarge(limit:)``.
    ///
    /// The socket is found by what the request knows of it: a TCP socket of this process whose
    /// peer has the request's port (and address, when the URL names an address rather than a
    /// name) and that has unread data. When not exactly one socket fits, none is touched, and the
    /// task's cancellation ends the transfer after the pass, as it would have anyway.
    enum TransferBreaker {
        /// Disconnects the one socket receiving the body from `url`'s server, if it can be told apart.
        /// - Returns: Whether a socket was disconnected.
        @discardableResult
        static func breakTransfer(to url: URL?) -> Bool {
            guard let url, let host = url.host else { return false }
            let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
            let address = PeerAddress(host)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else {
                return false
            }
            var candidates: [Int32] = []
            for name in names {
                guard let descriptor = Int32(name), isReceiving(descriptor, port: port, address: address) else {
                    continue
                }
                candidates.append(descriptor)
                if candidates.count > 1 { return false }
            }
            guard let descriptor = candidates.first else { return false }
            var unspecified = sockaddr()
            unspecified.sa_family = sa_family_t(AF_UNSPEC)
            return connect(descriptor, &unspecified, socklen_t(MemoryLayout<sockaddr>.size)) == 0
        }

        /// Whether `descriptor` is a TCP socket connected to `port` (and `address`, if known)
        /// with data waiting to be read.
        private static func isReceiving(_ descriptor: Int32, port: Int, address: PeerAddress?) -> Bool {
            var status = stat()
            guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { return false }
            var type: Int32 = 0
            var typeSize = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(descriptor, SOL_SOCKET, SO_TYPE, &type, &typeSize) == 0,
                type == Int32(SOCK_STREAM.rawValue)
            else { return false }
            var peer = sockaddr_storage()
            var peerSize = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let named = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &peerSize) }
            }
            guard named == 0, let connected = PeerAddress(peer), connected.port == port else { return false }
            if let address, !address.sameHost(as: connected) { return false }
            var byte: UInt8 = 0
            return recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
        }
    }

    /// An IP address (IPv4 as its IPv4-mapped IPv6 form) and port.
    private struct PeerAddress {
        var bytes: [UInt8]
        var port = 0

        /// The address `host` spells, or `nil` for a name.
        init?(_ host: String) {
            var host = host
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            var v4 = in_addr()
            var v6 = in6_addr()
            if inet_pton(AF_INET, host, &v4) == 1 {
                bytes = Self.mapped(v4)
            } else if inet_pton(AF_INET6, host, &v6) == 1 {
                bytes = withUnsafeBytes(of: v6) { Array($0) }
            } else {
                return nil
            }
        }

        /// A connected peer's address, or `nil` for another family.
        init?(_ storage: sockaddr_storage) {
            var storage = storage
            switch Int32(storage.ss_family) {
            case AF_INET:
                let address = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in.self) }
                bytes = Self.mapped(address.sin_addr)
                port = Int(UInt16(bigEndian: address.sin_port))
            case AF_INET6:
                let address = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in6.self) }
                bytes = withUnsafeBytes(of: address.sin6_addr) { Array($0) }
                port = Int(UInt16(bigEndian: address.sin6_port))
            default:
                return nil
            }
        }

        func sameHost(as other: PeerAddress) -> Bool { bytes == other.bytes }

        private static func mapped(_ address: in_addr) -> [UInt8] {
            [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF] + withUnsafeBytes(of: address) { Array($0) }
        }
    }
#endif
