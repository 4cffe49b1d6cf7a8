internal import NIOConcurrencyHelpers
internal import NIOCore

/// Which connections a server holds, and whom it turns away or reclaims a slot from when it is
/// full: the one budget of connection slots every peer address shares.
///
/// Each connection is in one of three phases: *pending* (accepted, no complete request head
/// yet), *busy* (a request is being answered) or *idle* (kept alive between requests). A busy
/// connection is never reclaimed. A pending or idle connection is *sending* while a byte of a
/// request head arrived within ``progressWindow``. A pending one is *in its grace* while it is
/// younger than ``settleTime`` and nothing has been read from it, unless its network was
/// answered `503` less than ``retryAfter`` before it connected; otherwise it is *silent*. A
/// network's *fair share* is the slots divided by the networks holding any (the newcomer's
/// counted), and at least one:
///
/// - A connection past its address's share (``UsersServer/Limits/maximumConnectionsPerAddress``,
///   or ``UsersServer/Limits/maximumPendingConnectionsPerAddress`` of them pending) is refused.
/// - When every slot is taken, a newcomer takes a slot, in this order: a silent, in-grace or
///   idle connection of a network holding more than its fair share, then a sending one of such
///   a network; then, of a network within its share, a silent connection opened sooner than its
///   network was told to retry, any other silent one, and last one in its grace, but never one
///   of the newest ``maximumInGrace`` in their grace. Within its share, a network never loses a
///   connection that is sending or idle: an idle one stays until its idle timeout. Within each
///   step the network holding the most goes first, and its oldest connection. A network gives
///   up a slot only to a newcomer whose network holds at least two fewer (or none), so attackers
///   that reconnect whatever is closed settle into equal shares instead of displacing each
///   other forever.
/// - When no connection is reclaimable, the newcomer is refused.
///
/// The grace is for a client that sends its request as soon as it has connected, before the
/// server has read it. It is bounded because it could be gamed: attackers that reopen every
/// connection the server closes keep all of theirs younger than the grace, and would otherwise
/// leave a newcomer nothing to take. Their connections come back sooner than the `Retry-After`
/// they were answered, so they have no grace and go first; and past the newest
/// ``maximumInGrace`` in their grace, the oldest are taken all the same. A client at an address
/// of its own therefore finds a slot, and its own new connection is taken only when no
/// connection that came back too soon is left, even if its request is read late.
///
/// A network is an IPv4 address, or an IPv6 /48: each /64 is one address for the limits above,
/// but the /48 around it is one network for fair shares and holds at most
/// ``networkFactor`` addresses' worth of connections, so the 65,536 /64s one site can be given
/// count as one voter, not as 65,536 against IPv4 clients.
///
/// A refused newcomer and a reclaimed pending connection are answered `503 Service Unavailable`
/// with `Retry-After` (``Refusal``); a reclaimed idle connection is closed, as its idle timeout
/// would have, and its client reconnects. Refused connections wait for their client to read the
/// answer in a pool of ``maximumRefusals`` sockets; when it is full the oldest is closed, so
/// refusals never stop the server accepting (and draining its listen queue).
///
/// IPv4 peers are counted per address, and so are IPv4 peers of a dual-stack (`::`) listener,
/// which arrive as IPv4-mapped IPv6 addresses (`::ffff:a.b.c.d`); other IPv6 peers are counted
/// per /64, the block one host usually gets.
final class PeerAdmission: Sendable {
    private let maximumConnections: Int
    private let maximumPerAddress: Int
    private let maximumPendingPerAddress: Int
    /// The most refused connections held open while their clients read the answer.
    let maximumRefusals: Int
    private let state = NIOLockedValueBox(State())

    /// How recently a byte of a request head must have arrived for its connection to count as
    /// sending, and so not be reclaimed: a client whose head comes in two parts 300 ms apart
    /// keeps its slot; one that sent part of a head and went silent does not.
    static let progressWindow = TimeAmount.seconds(1)

    /// How long a new connection that has sent nothing is not taken for silent (its grace): its
    /// client sends the request once its connect completes, and the server may not have read it
    /// yet. Only the newest ``maximumInGrace`` connections of networks within their share keep
    /// it, and a connection opened sooner than its network was told to retry has none.
    static let settleTime = TimeAmount.milliseconds(100)

    /// The most connections in their grace (see ``settleTime``) that keep it: an eighth of the
    /// slots, at least one. Attackers that reconnect whatever is closed keep every connection
    /// young; past this many, their oldest are taken as silent all the same.
    let maximumInGrace: Int

    /// What a `503` tells its client to wait (`Retry-After`): a network's connection opened
    /// sooner than that after one has no grace (see ``settleTime``).
    let retryAfter: TimeAmount

    /// The most networks remembered as answered `503` per period of ``retryAfter`` (four per
    /// slot); past it, more are not remembered, and their connections have the usual grace.
    let maximumRemembered: Int

    /// How many addresses' worth of connections one IPv6 /48 may hold.
    static let networkFactor = 4

    /// A peer's address, or its IPv6 /64.
    enum Key: Hashable {
        case v4(UInt32)
        case v6(UInt64)
        /// Local sockets have no address to tell peers apart by: they share one key.
        case local

        /// The network the address belongs to, for fair shares: itself for IPv4, the /48 for IPv6.
        var network: Network {
            switch self {
            case .v4(let address): .v4(address)
            case .v6(let prefix): .v6(prefix >> 16)
            case .local: .local
            }
        }
    }

    /// An IPv4 address or an IPv6 /48: one voter in the fair share.
    enum Network: Hashable {
        case v4(UInt32)
        case v6(UInt64)
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
        /// When a byte of a request head last arrived (`NIODeadline` uptime), 0 for never.
        var lastProgress: UInt64 = 0
        /// Whether ``PeerAdmission/settleTime`` has passed since it was admitted: until then a
        /// request its client sent at once may be waiting unread.
        var settled = false
        /// Whether it may have a grace at all: not when its network was answered `503` less than
        /// ``PeerAdmission/retryAfter`` before it connected (its client did not wait as told).
        var mayHaveGrace = true

        /// Accepted less than ``PeerAdmission/settleTime`` ago, and nothing read from it yet:
        /// its client may have sent its request, unread so far.
        var isInGrace: Bool { mayHaveGrace && phase == .pending && !settled && lastProgress == 0 }
    }

    private struct Held {
        var connections = 0
        var pending = 0
    }

    private struct State {
        /// Connections by serial number: a smaller number is an older connection.
        var connections: [UInt64: Entry] = [:]
        var peers: [Key: Held] = [:]
        var networks: [Network: Held] = [:]
        var nextSerial: UInt64 = 0
        /// Refused connections still open, by serial number.
        var refusals: [UInt64: any Channel] = [:]
        /// When networks were last answered `503`: those of the current period of
        /// ``PeerAdmission/retryAfter``, and of the one before (which holds every answer of the
        /// last `retryAfter` that is not in the current one). Each holds at most
        /// ``PeerAdmission/maximumRemembered`` networks.
        var toldToWait: [Network: UInt64] = [:]
        var toldToWaitBefore: [Network: UInt64] = [:]
        var periodStarted: UInt64 = 0

        mutating func remove(_ serial: UInt64) -> Entry? {
            guard let entry = connections.removeValue(forKey: serial) else { return nil }
            let pending = entry.phase == .pending ? 1 : 0
            var held = peers[entry.key, default: Held()]
            held.connections -= 1
            held.pending -= pending
            // Forget addresses that hold nothing, so the tables are as large as the open connections.
            peers[entry.key] = held.connections == 0 ? nil : held
            var network = networks[entry.key.network, default: Held()]
            network.connections -= 1
            network.pending -= pending
            networks[entry.key.network] = network.connections == 0 ? nil : network
            return entry
        }

        /// Remembers that `network` was answered `503` at `now`, for one `period` (at most
        /// `remembering` networks a period).
        mutating func toldToWait(_ network: Network, now: UInt64, period: UInt64, remembering: Int) {
            startPeriod(now: now, period: period)
            if toldToWait.count < remembering || toldToWait[network] != nil { toldToWait[network] = now }
        }

        /// Whether `network` was answered `503` less than `period` before `now`.
        mutating func wasToldToWait(_ network: Network, now: UInt64, period: UInt64) -> Bool {
            guard !toldToWait.isEmpty || !toldToWaitBefore.isEmpty else { return false }
            startPeriod(now: now, period: period)
            guard let told = toldToWait[network] ?? toldToWaitBefore[network] else { return false }
            return now &- told < period
        }

        private mutating func startPeriod(now: UInt64, period: UInt64) {
            guard now &- periodStarted >= period else { return }
            toldToWaitBefore = (now &- periodStarted) / 2 >= period ? [:] : toldToWait
            toldToWait = [:]
            periodStarted = now
        }

        mutating func move(_ serial: UInt64, _ change: (Phase) -> Phase) {
            guard let entry = connections[serial] else { return }
            let phase = change(entry.phase)
            if entry.phase == .pending, phase != .pending {
                peers[entry.key]?.pending -= 1
                networks[entry.key.network]?.pending -= 1
            }
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
                // Bytes that arrive from now on are the next request's.
                state.connections[serial]?.lastProgress = 0
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

        /// A byte of a request head arrived: the connection is sending, not to be reclaimed for
        /// ``PeerAdmission/progressWindow``.
        func progressed() {
            let now = NIODeadline.now().uptimeNanoseconds
            admission.state.withLockedValue { $0.connections[serial]?.lastProgress = now }
        }

        /// ``PeerAdmission/settleTime`` has passed: silent from now on means silent.
        func settle() {
            admission.state.withLockedValue { $0.connections[serial]?.settled = true }
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
    ///   - maximumRefusals: The most refused connections held open while their clients read the answer.
    ///   - retryAfter: What a `503` tells its client to wait.
    init(
        maximumConnections: Int, maximumPerAddress: Int, maximumPendingPerAddress: Int, maximumRefusals: Int = 16,
        retryAfter: TimeAmount = .seconds(1)
    ) {
        self.maximumConnections = maximumConnections
        self.maximumPerAddress = maximumPerAddress
        self.maximumPendingPerAddress = maximumPendingPerAddress
        self.maximumRefusals = max(1, maximumRefusals)
        self.maximumInGrace = max(1, maximumConnections / 8)
        self.retryAfter = retryAfter
        self.maximumRemembered = max(256, maximumConnections.multipliedReportingOverflow(by: 4).partialValue)
    }

    /// Admits `channel`, connected from `address`, taking a slot from another connection when
    /// every slot is held, or refuses it.
    func admit(_ address: SocketAddress?, channel: any Channel) -> Decision {
        let key = Self.key(address)
        let now = NIODeadline.now().uptimeNanoseconds
        return state.withLockedValue { state in
            if state.connections.count >= maximumConnections || state.peers[key] != nil {
                // A connection closes before its close is reported here: one that has served a
                // request and closed holds nothing (a client's next connection must not count its
                // last one). A pending one may not be active yet: it is still being set up.
                for (serial, entry) in state.connections where entry.phase != .pending && !entry.channel.isActive {
                    _ = state.remove(serial)
                }
            }
            let period = UInt64(retryAfter.nanoseconds)
            let held = state.peers[key, default: Held()]
            guard held.connections < maximumPerAddress, held.pending < maximumPendingPerAddress else {
                state.toldToWait(key.network, now: now, period: period, remembering: maximumRemembered)
                return .refused(.addressAtLimit)
            }
            if case .v6 = key {
                let network = state.networks[key.network, default: Held()]
                guard network.connections < maximumPerAddress * Self.networkFactor,
                    network.pending < maximumPendingPerAddress * Self.networkFactor
                else {
                    state.toldToWait(key.network, now: now, period: period, remembering: maximumRemembered)
                    return .refused(.addressAtLimit)
                }
            }
            var reclaimed: Entry?
            if state.connections.count >= maximumConnections {
                guard let victim = victim(in: state, for: key, now: now) else {
                    state.toldToWait(key.network, now: now, period: period, remembering: maximumRemembered)
                    return .refused(.serverFull)
                }
                reclaimed = state.remove(victim)
                // A pending connection whose slot is taken is answered `503` too.
                if let reclaimed, reclaimed.phase == .pending {
                    state.toldToWait(reclaimed.key.network, now: now, period: period, remembering: maximumRemembered)
                }
            }
            let serial = state.nextSerial
            state.nextSerial += 1
            var entry = Entry(key: key, channel: channel)
            entry.mayHaveGrace = !state.wasToldToWait(key.network, now: now, period: period)
            state.connections[serial] = entry
            state.peers[key, default: Held()].connections += 1
            state.peers[key, default: Held()].pending += 1
            state.networks[key.network, default: Held()].connections += 1
            state.networks[key.network, default: Held()].pending += 1
            return .admitted(Ticket(serial: serial, admission: self), reclaimed: reclaimed?.channel)
        }
    }

    /// Holds `channel`, refused, while its client reads the answer, and forgets it when it
    /// closes. Returns the oldest refused connection to close when the pool is full, so refusals
    /// never hold sockets the server needs to accept with.
    func refusing(_ channel: any Channel) -> (any Channel)? {
        let (serial, evicted) = state.withLockedValue { state -> (UInt64, (any Channel)?) in
            let serial = state.nextSerial
            state.nextSerial += 1
            var evicted: (any Channel)?
            if state.refusals.count >= maximumRefusals, let oldest = state.refusals.keys.min() {
                evicted = state.refusals.removeValue(forKey: oldest)
            }
            state.refusals[serial] = channel
            return (serial, evicted)
        }
        channel.closeFuture.whenComplete { _ in
            _ = self.state.withLockedValue { $0.refusals.removeValue(forKey: serial) }
        }
        return evicted
    }

    /// The slot a newcomer from `newcomer` takes, or `nil` when there is none (see the type's
    /// documentation for the order).
    ///
    /// Only networks holding at least two more than the newcomer's would with it (any, for a
    /// newcomer whose network holds nothing yet) give up a slot: networks of equal weight do not
    /// take slots from each other, so attackers that reconnect whatever is closed settle into
    /// equal shares and are refused, instead of reclaiming each other's slots in an endless round.
    private func victim(in state: State, for newcomer: Key, now: UInt64) -> UInt64? {
        let held = state.networks[newcomer.network]?.connections ?? 0
        let floor = held == 0 ? 1 : held + 2
        let share = max(1, maximumConnections / (state.networks.count + (held == 0 ? 1 : 0)))
        let window = UInt64(Self.progressWindow.nanoseconds)
        // The connections in their grace that keep it: the newest `maximumInGrace` of those of
        // networks within their share (over its share, a network's connections have no grace).
        var inGrace: [UInt64] = []
        for (serial, entry) in state.connections where entry.isInGrace {
            if state.networks[entry.key.network]?.connections ?? 0 <= share { inGrace.append(serial) }
        }
        let keepsGrace: UInt64
        if inGrace.count > maximumInGrace {
            inGrace.sort(by: >)
            keepsGrace = inGrace[maximumInGrace - 1]
        } else {
            keepsGrace = 0
        }
        // Smaller ranks go first: (tier, -weight, serial).
        var best: (tier: Int, weight: Int, serial: UInt64)?
        for (serial, entry) in state.connections where entry.phase.isReclaimable {
            let weight = state.networks[entry.key.network]?.connections ?? 0
            guard weight >= floor else { continue }
            let sending = entry.lastProgress != 0 && now &- entry.lastProgress < window
            let tier: Int
            if weight > share {
                tier = sending ? 1 : 0
            } else if sending || entry.phase == .idle {
                // Within its network's share, a connection sending its head, or idle between
                // requests, keeps its slot until its idle timeout.
                continue
            } else if !entry.mayHaveGrace {
                // Opened before the `Retry-After` its network was told was up, and not sending.
                tier = 2
            } else if !entry.isInGrace {
                tier = 3
            } else if serial < keepsGrace {
                tier = 4
            } else {
                continue
            }
            if let current = best,
                (current.tier, -current.weight, current.serial) < (tier, -weight, serial)
            {
                continue
            }
            best = (tier, weight, serial)
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
