internal import NIOConcurrencyHelpers
internal import NIOCore

/// What each peer address holds of one server: its open connections, and of those the ones
/// that have not yet sent a complete request head.
///
/// One address that reopens idle half-requests as fast as the server closes them (a
/// reconnecting slowloris) could otherwise keep every connection slot, so that legitimate
/// clients wait in the listen backlog. Past its share, a peer's new connection is closed as
/// soon as it is accepted; the slots it did not get stay free for other addresses.
///
/// IPv4 peers are counted per address; IPv6 peers per /64, the block one host usually gets.
final class PeerAdmission: Sendable {
    private let maximumConnections: Int
    private let maximumPending: Int
    private let peers = NIOLockedValueBox([Key: Held]())

    /// A peer's address, or its IPv6 /64.
    enum Key: Hashable {
        case v4(UInt32)
        case v6(UInt64)
        /// Local sockets have no address to tell peers apart by: they share one key.
        case local
    }

    private struct Held {
        var connections = 0
        var pending = 0
    }

    /// A connection that was admitted; hand it back with ``requestArrived()`` and ``release()``.
    final class Ticket: Sendable {
        fileprivate let key: Key
        private let admission: PeerAdmission
        private let state = NIOLockedValueBox((pending: true, released: false))

        fileprivate init(key: Key, admission: PeerAdmission) {
            self.key = key
            self.admission = admission
        }

        /// The connection's first complete request head arrived: it no longer counts as pending.
        func requestArrived() {
            let wasPending = state.withLockedValue { state in
                defer { state.pending = false }
                return state.pending && !state.released
            }
            if wasPending { admission.update(key) { $0.pending -= 1 } }
        }

        /// The connection closed.
        func release() {
            let (wasPending, wasHeld) = state.withLockedValue { state in
                defer { (state.pending, state.released) = (false, true) }
                return (state.pending && !state.released, !state.released)
            }
            guard wasHeld else { return }
            admission.update(key) { held in
                held.connections -= 1
                if wasPending { held.pending -= 1 }
            }
        }
    }

    /// - Parameters:
    ///   - maximumConnections: The most connections one address may hold.
    ///   - maximumPending: The most of them that may be waiting for a complete request head.
    init(maximumConnections: Int, maximumPending: Int) {
        self.maximumConnections = maximumConnections
        self.maximumPending = maximumPending
    }

    /// Admits a connection from `address`, or returns `nil` when the address already holds its
    /// share (the caller closes the connection).
    func admit(_ address: SocketAddress?) -> Ticket? {
        let key = Self.key(address)
        let admitted = peers.withLockedValue { peers in
            var held = peers[key, default: Held()]
            guard held.connections < maximumConnections, held.pending < maximumPending else { return false }
            held.connections += 1
            held.pending += 1
            peers[key] = held
            return true
        }
        return admitted ? Ticket(key: key, admission: self) : nil
    }

    private func update(_ key: Key, _ change: (inout Held) -> Void) {
        peers.withLockedValue { peers in
            guard var held = peers[key] else { return }
            change(&held)
            // Forget addresses that hold nothing, so the table is as large as the open connections.
            peers[key] = held.connections == 0 ? nil : held
        }
    }

    /// Read from the socket address's bytes, in network order: `sin_addr` starts at byte 4 of
    /// a `sockaddr_in` and `sin6_addr` at byte 8 of a `sockaddr_in6`, on Linux and on Darwin.
    /// (Naming the fields would tie this file to whichever C module the compiler finds them in.)
    static func key(_ address: SocketAddress?) -> Key {
        func bigEndian(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
            bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
        switch address {
        case .v4(let v4):
            return .v4(
                UInt32(withUnsafeBytes(of: v4.address) { bigEndian(UnsafeRawBufferPointer(rebasing: $0[4..<8])) }))
        case .v6(let v6):
            return .v6(withUnsafeBytes(of: v6.address) { bigEndian(UnsafeRawBufferPointer(rebasing: $0[8..<16])) })
        case .unixDomainSocket, nil:
            return .local
        }
    }
}
