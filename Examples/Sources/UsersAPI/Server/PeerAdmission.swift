internal import NIOConcurrencyHelpers
internal import NIOCore

/// Which connections a server holds, and whom it turns away or reclaims a slot from when it is
/// full: the one budget of connection slots every peer address shares.
///
/// Each connection is in one of three phases: *pending* (accepted, no complete request head
/// yet), *busy* (a request is being answered) or *idle* (kept alive between requests). Pending
/// and idle connections cost the server a file descriptor and nothing else, so they are the
/// ones a newcomer may take a slot from:
///
/// - A connection past its address's share (``UsersServer/Limits/maximumConnectionsPerAddress``,
///   or ``UsersServer/Limits/maximumPendingConnectionsPerAddress`` of them pending) is refused.
/// - When every slot is taken, a newcomer takes the slot of the oldest pending or idle
///   connection of the address holding the most connections, if that address holds more than
///   the newcomer's would with it (or any connection at all, when the newcomer's address holds
///   none). An address is never displaced by one that holds as many as it does, so a client at
///   an address of its own is served while any other address holds a pending or idle
///   connection, however many addresses take part in an attack, and attackers that reconnect
///   whatever is closed settle into equal shares instead of displacing each other forever.
/// - When no such connection is pending or idle (every slot is answering a request), the
///   newcomer is refused.
///
/// A refused newcomer and a reclaimed pending connection are answered `503 Service Unavailable`
/// with `Retry-After` (``Refusal``); a reclaimed idle connection is closed, as its idle timeout
/// would have, and its client reconnects.
///
/// IPv4 peers are counted per address, and so are IPv4 peers of a dual-stack (`::`) listener,
/// which arrive as IPv4-mapped IPv6 addresses (`::ffff:a.b.c.d`); other IPv6 peers are counted
/// per /64, the block one host usually gets.
final class PeerAdmission: Sendable {
    private let maximumConnections: Int
    private let maximumPerAddress: Int
    private let maximumPendingPerAddress: Int
    private let state = NIOLockedValueBox(State())

    /// A peer's address, or its IPv6 /64.
    enum Key: Hashable {
        case v4(UInt32)
        case v6(UInt64)
        /// Local sockets have no address to tell peers apart by: they share one key.
        case local
    }

    /// Where a connection is in its life, as far as reclaiming its slot goes.
    enum Phase: Equatable {
        /// Accepted; no complete request head yet.
        case pending
        /// Answering this many requests (more than one when requests are pipelined).
        case busy(Int)
        /// Kept alive between requests.
        case idle

        var isReclaimable: Bool { self == .pending || self == .idle }
    }

    /// Why a connection was refused.
    enum Refusal: Equatable {
        /// Its address already holds its share of connections, or of pending ones.
        case addressAtLimit
        /// Every slot is answering a request.
        case serverFull
    }

    /// What ``admit(_:channel:)`` decided.
    enum Decision {
        /// Admitted; `reclaimed` is the connection whose slot it took, to be closed by the caller.
        case admitted(Ticket, reclaimed: (any Channel)?)
        /// Refused; the caller answers it and closes it.
        case refused(Refusal)
    }

    private struct Entry {
        let key: Key
        let channel: any Channel
        var phase = Phase.pending
    }

    private struct Held {
        var connections = 0
        var pending = 0
    }

    private struct State {
        /// Connections by serial number: a smaller number is an older connection.
        var connections: [UInt64: Entry] = [:]
        var peers: [Key: Held] = [:]
        var nextSerial: UInt64 = 0

        mutating func remove(_ serial: UInt64) -> Entry? {
            guard let entry = connections.removeValue(forKey: serial) else { return nil }
            var held = peers[entry.key, default: Held()]
            held.connections -= 1
            if entry.phase == .pending { held.pending -= 1 }
            // Forget addresses that hold nothing, so the table is as large as the open connections.
            peers[entry.key] = held.connections == 0 ? nil : held
            return entry
        }

        mutating func move(_ serial: UInt64, _ change: (Phase) -> Phase) {
            guard let entry = connections[serial] else { return }
            let phase = change(entry.phase)
            if entry.phase == .pending, phase != .pending { peers[entry.key]?.pending -= 1 }
            connections[serial]?.phase = phase
        }
    }

    /// An admitted connection; report its requests with ``requestStarted()`` and
    /// ``responseFinished()``, and its end with ``release()``.
    final class Ticket: Sendable {
        private let serial: UInt64
        private let admission: PeerAdmission

        fileprivate init(serial: UInt64, admission: PeerAdmission) {
            self.serial = serial
            self.admission = admission
        }

        /// A complete request head arrived.
        func requestStarted() {
            admission.state.withLockedValue { state in
                state.move(serial) { phase in
                    if case .busy(let count) = phase { return .busy(count + 1) }
                    return .busy(1)
                }
            }
        }

        /// A response was written to its end.
        func responseFinished() {
            admission.state.withLockedValue { state in
                state.move(serial) { phase in
                    guard case .busy(let count) = phase else { return phase }
                    return count > 1 ? .busy(count - 1) : .idle
                }
            }
        }

        /// The connection closed (or its slot was reclaimed; releasing it again does nothing).
        func release() {
            _ = admission.state.withLockedValue { $0.remove(serial) }
        }
    }

    /// - Parameters:
    ///   - maximumConnections: The most connections held at once, from all addresses.
    ///   - maximumPerAddress: The most connections one address may hold.
    ///   - maximumPendingPerAddress: The most of them that may be waiting for a complete request head.
    init(maximumConnections: Int, maximumPerAddress: Int, maximumPendingPerAddress: Int) {
        self.maximumConnections = maximumConnections
        self.maximumPerAddress = maximumPerAddress
        self.maximumPendingPerAddress = maximumPendingPerAddress
    }

    /// Admits `channel`, connected from `address`, taking a slot from another connection when
    /// every slot is held, or refuses it.
    func admit(_ address: SocketAddress?, channel: any Channel) -> Decision {
        let key = Self.key(address)
        return state.withLockedValue { state in
            let held = state.peers[key, default: Held()]
            guard held.connections < maximumPerAddress, held.pending < maximumPendingPerAddress else {
                return .refused(.addressAtLimit)
            }
            var reclaimed: Entry?
            if state.connections.count >= maximumConnections {
                guard let victim = Self.victim(in: state, for: key) else { return .refused(.serverFull) }
                reclaimed = state.remove(victim)
            }
            let serial = state.nextSerial
            state.nextSerial += 1
            state.connections[serial] = Entry(key: key, channel: channel)
            state.peers[key, default: Held()].connections += 1
            state.peers[key, default: Held()].pending += 1
            return .admitted(Ticket(serial: serial, admission: self), reclaimed: reclaimed?.channel)
        }
    }

    /// The oldest pending or idle connection of the address holding the most connections, among
    /// addresses holding more than the newcomer's would with it (any address, for a newcomer
    /// whose address holds nothing yet); `nil` when there is none.
    ///
    /// Strictly more: addresses of equal weight do not take slots from each other, so attackers
    /// that reconnect whatever is closed settle into equal shares and are refused, instead of
    /// reclaiming each other's slots in an endless round.
    private static func victim(in state: State, for newcomer: Key) -> UInt64? {
        let held = state.peers[newcomer]?.connections ?? 0
        let floor = held == 0 ? 1 : held + 2
        var best: (serial: UInt64, weight: Int)?
        for (serial, entry) in state.connections where entry.phase.isReclaimable {
            let weight = state.peers[entry.key]?.connections ?? 0
            guard weight >= floor else { continue }
            if let current = best, current.weight > weight || (current.weight == weight && current.serial < serial) {
                continue
            }
            best = (serial, weight)
        }
        return best?.serial
    }

    /// Read from the socket address's bytes, in network order: `sin_addr` starts at byte 4 of
    /// a `sockaddr_in` and `sin6_addr` at byte 8 of a `sockaddr_in6`, on Linux and on Darwin.
    /// (Naming the fields would tie this file to whichever C module the compiler finds them in.)
    ///
    /// An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, how a dual-stack listener sees an IPv4
    /// peer) is its IPv4 address: its /64 is all zeros, the same for every IPv4 client.
    static func key(_ address: SocketAddress?) -> Key {
        func bigEndian(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
            bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
        switch address {
        case .v4(let v4):
            return .v4(
                UInt32(withUnsafeBytes(of: v4.address) { bigEndian(UnsafeRawBufferPointer(rebasing: $0[4..<8])) }))
        case .v6(let v6):
            return withUnsafeBytes(of: v6.address) { raw in
                let address = UnsafeRawBufferPointer(rebasing: raw[8..<24])
                if address[0..<10].allSatisfy({ $0 == 0 }), address[10] == 0xFF, address[11] == 0xFF {
                    return .v4(UInt32(bigEndian(UnsafeRawBufferPointer(rebasing: address[12..<16]))))
                }
                return .v6(bigEndian(UnsafeRawBufferPointer(rebasing: address[0..<8])))
            }
        case .unixDomainSocket, nil:
            return .local
        }
    }
}
