import Foundation
import NIOCore
import NIOEmbedded
import Testing

@testable import UsersAPI

/// Fair shares by network: an IPv6 /48 is one voter, however many /64s it spreads over.
@Suite struct PeerAdmissionTests {
    static func address(_ text: String) throws -> SocketAddress { try SocketAddress(ipAddress: text, port: 40_000) }

    /// The ticket of an admitted connection, settled as its event loop would settle it.
    /// A connected (active) channel, as the server's are once they have served a request.
    static func connected() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.connect(to: try address("192.0.2.250")).wait()
        return channel
    }

    static func ticket(_ decision: PeerAdmission.Decision) -> PeerAdmission.Ticket? {
        guard case .admitted(let ticket, _) = decision else { return nil }
        ticket.settle()
        return ticket
    }

    @Test func slashFortyEightOfSlashSixtyFoursCannotOutVoteAnIPv4Client() throws {
        let admission = PeerAdmission(maximumConnections: 8, maximumPerAddress: 4, maximumPendingPerAddress: 4)
        let client = try Self.connected()
        let kept = try #require(Self.ticket(admission.admit(try Self.address("192.0.2.1"), channel: client)))
        kept.requestStarted()
        kept.responseFinished()  // idle, kept alive
        // Seven hosts, each in a /64 of its own, all in 2001:db8:1::/48, fill the other slots.
        for host in 1...7 {
            let decision = admission.admit(try Self.address("2001:db8:1:\(host)::1"), channel: EmbeddedChannel())
            #expect(Self.ticket(decision) != nil)
        }
        // More /64s of that /48 are one network holding seven: they take nothing from the IPv4 client.
        for host in 8...40 {
            let decision = admission.admit(try Self.address("2001:db8:1:\(host)::1"), channel: EmbeddedChannel())
            guard case .refused = decision else {
                Issue.record("a /64 of the full /48 was admitted: \(decision)")
                return
            }
        }
        // A second IPv4 client takes a slot from the /48, which holds more than its share.
        let newcomer = admission.admit(try Self.address("192.0.2.2"), channel: EmbeddedChannel())
        guard case .admitted(_, let reclaimed) = newcomer else {
            Issue.record("the IPv4 newcomer was refused")
            return
        }
        #expect(reclaimed != nil && reclaimed !== client)
    }

    @Test func connectionNotYetReadIsNotTakenForSilent() throws {
        let admission = PeerAdmission(maximumConnections: 1, maximumPerAddress: 4, maximumPendingPerAddress: 4)
        let first = admission.admit(try Self.address("192.0.2.1"), channel: EmbeddedChannel())
        guard case .admitted = first else {
            Issue.record("refused")
            return
        }
        // Its event loop has not had a turn to read what the client sent: not silent yet.
        guard case .refused(.serverFull) = admission.admit(try Self.address("192.0.2.2"), channel: EmbeddedChannel())
        else {
            Issue.record("took the slot of a connection whose request may be waiting unread")
            return
        }
    }

    @Test func slashFortyEightHoldsAtMostFourAddressesWorth() throws {
        let admission = PeerAdmission(maximumConnections: 1_000, maximumPerAddress: 4, maximumPendingPerAddress: 4)
        var admitted = 0
        for host in 1...40 {
            if Self.ticket(admission.admit(try Self.address("2001:db8:2:\(host)::1"), channel: EmbeddedChannel()))
                != nil
            {
                admitted += 1
            }
        }
        #expect(admitted == 4 * PeerAdmission.networkFactor)
        // Another /48 and IPv4 are not affected.
        #expect(Self.ticket(admission.admit(try Self.address("2001:db8:3::1"), channel: EmbeddedChannel())) != nil)
        #expect(Self.ticket(admission.admit(try Self.address("192.0.2.9"), channel: EmbeddedChannel())) != nil)
    }

    @Test func sendingConnectionWithinItsShareIsNeverReclaimedButASilentOneIs() throws {
        let admission = PeerAdmission(maximumConnections: 2, maximumPerAddress: 4, maximumPendingPerAddress: 4)
        let sendingChannel = EmbeddedChannel()
        let silentChannel = EmbeddedChannel()
        let sending = try #require(Self.ticket(admission.admit(try Self.address("192.0.2.1"), channel: sendingChannel)))
        sending.progressed()
        _ = try #require(Self.ticket(admission.admit(try Self.address("192.0.2.2"), channel: silentChannel)))
        let newcomer = admission.admit(try Self.address("192.0.2.3"), channel: EmbeddedChannel())
        guard case .admitted(let third, let reclaimed) = newcomer else {
            Issue.record("refused although a silent connection held a slot")
            return
        }
        #expect(reclaimed === silentChannel)
        third.settle()
        // Now only the sender (sending) and the newcomer (silent) hold slots: the next takes the newcomer's.
        let next = admission.admit(try Self.address("192.0.2.4"), channel: EmbeddedChannel())
        guard case .admitted(_, let second) = next else {
            Issue.record("refused although a silent connection held a slot")
            return
        }
        #expect(second !== sendingChannel)
    }

    /// Admits a connection from `host` (in 192.0.2.0/24) and returns its channel, or records an
    /// issue. The channel is connected: a closed one that has served a request holds no slot.
    static func admitted(_ admission: PeerAdmission, _ host: Int) throws -> (EmbeddedChannel, PeerAdmission.Ticket)? {
        let channel = try connected()
        guard case .admitted(let ticket, _) = admission.admit(try address("192.0.2.\(host)"), channel: channel) else {
            Issue.record("192.0.2.\(host) was refused")
            return nil
        }
        return (channel, ticket)
    }

    @Test func connectionsInTheirGracePastTheNewestEighthAreTakenOldestFirst() throws {
        // Sixteen slots, each held by a connection of its own address that nothing has been read
        // from yet, as when attackers reopen every connection the moment it is closed.
        let admission = PeerAdmission(maximumConnections: 16, maximumPerAddress: 4, maximumPendingPerAddress: 4)
        var channels: [EmbeddedChannel] = []
        for host in 1...16 {
            guard let (channel, _) = try Self.admitted(admission, host) else { return }
            channels.append(channel)
        }
        // Each newcomer, itself in its grace, takes the oldest: the grace protects the newest two only.
        for (index, host) in (101...116).enumerated() {
            guard
                case .admitted(_, let reclaimed) = admission.admit(
                    try Self.address("192.0.2.\(host)"), channel: EmbeddedChannel())
            else {
                Issue.record("newcomer \(index) was refused")
                return
            }
            #expect(reclaimed === channels[index], "newcomer \(index)")
        }
    }

    @Test func theNewestEighthOfTheSlotsKeepTheirGrace() throws {
        let admission = PeerAdmission(maximumConnections: 16, maximumPerAddress: 4, maximumPendingPerAddress: 4)
        for host in 1...14 {
            guard let (_, ticket) = try Self.admitted(admission, host) else { return }
            ticket.requestStarted()
        }
        // Two new connections, nothing read from them yet: an eighth of sixteen slots.
        for host in 15...16 {
            guard try Self.admitted(admission, host) != nil else { return }
        }
        guard case .refused(.serverFull) = admission.admit(try Self.address("192.0.2.17"), channel: EmbeddedChannel())
        else {
            Issue.record("took the slot of one of the newest connections, whose requests may be waiting unread")
            return
        }
    }

    @Test func idleConnectionWithinItsShareIsNeverReclaimed() throws {
        let admission = PeerAdmission(maximumConnections: 3, maximumPerAddress: 4, maximumPendingPerAddress: 4)
        let client = try Self.connected()
        let kept = try #require(Self.ticket(admission.admit(try Self.address("192.0.2.1"), channel: client)))
        kept.requestStarted()
        kept.responseFinished()  // idle, kept alive
        guard let (_, busy) = try Self.admitted(admission, 2) else { return }
        busy.requestStarted()
        let silent = EmbeddedChannel()
        _ = try #require(Self.ticket(admission.admit(try Self.address("192.0.2.3"), channel: silent)))
        // The silent connection goes first.
        guard
            case .admitted(let newcomer, let reclaimed) = admission.admit(
                try Self.address("192.0.2.4"), channel: try Self.connected())
        else {
            Issue.record("refused although a silent connection held a slot")
            return
        }
        #expect(reclaimed === silent)
        newcomer.settle()
        newcomer.requestStarted()
        // Then nothing: the idle client keeps its connection, and the next newcomer is refused.
        guard case .refused(.serverFull) = admission.admit(try Self.address("192.0.2.5"), channel: EmbeddedChannel())
        else {
            Issue.record("took the idle connection of an address within its share")
            return
        }
    }

    @Test func overItsShareANetworksConnectionsInTheirGraceGoBeforeItsSendingOne() throws {
        let admission = PeerAdmission(maximumConnections: 8, maximumPerAddress: 4, maximumPendingPerAddress: 4)
        // 192.0.2.1 holds four: its oldest is sending its head, the other three are new.
        guard let (sendingChannel, sending) = try Self.admitted(admission, 1) else { return }
        sending.progressed()
        var fresh: [EmbeddedChannel] = []
        for _ in 0..<3 {
            guard let (channel, _) = try Self.admitted(admission, 1) else { return }
            fresh.append(channel)
        }
        // Four busy connections fill the other slots.
        for host in 2...5 {
            guard let (_, ticket) = try Self.admitted(admission, host) else { return }
            ticket.requestStarted()
        }
        // Six networks and the newcomer's: a fair share is one slot, and 192.0.2.1 holds four.
        guard
            case .admitted(_, let reclaimed) = admission.admit(
                try Self.address("192.0.2.9"), channel: EmbeddedChannel())
        else {
            Issue.record("refused although a network over its share held new connections")
            return
        }
        #expect(reclaimed === fresh[0])
        #expect(reclaimed !== sendingChannel)
    }

    /// Four slots: a new connection from 192.0.2.1 nothing has been read from, three busy ones,
    /// and 192.0.2.9 answered `503` (every slot taken). One busy connection ends; 192.0.2.9's
    /// next connection takes its slot at once, sooner than the `Retry-After` it was told.
    static func toldToWaitAndBack(
        retryAfter: TimeAmount, waiting: TimeAmount = .zero
    ) throws -> (PeerAdmission, fresh: EmbeddedChannel, back: EmbeddedChannel)? {
        let admission = PeerAdmission(
            maximumConnections: 4, maximumPerAddress: 4, maximumPendingPerAddress: 4, retryAfter: retryAfter)
        guard let (fresh, _) = try admitted(admission, 1) else { return nil }
        var busy: [PeerAdmission.Ticket] = []
        for host in 2...4 {
            guard let (_, ticket) = try admitted(admission, host) else { return nil }
            ticket.requestStarted()
            busy.append(ticket)
        }
        guard case .refused(.serverFull) = admission.admit(try address("192.0.2.9"), channel: EmbeddedChannel()) else {
            Issue.record("192.0.2.9 took the slot of the newest connection")
            return nil
        }
        busy[0].release()
        if waiting > .zero { Thread.sleep(forTimeInterval: Double(waiting.nanoseconds) / 1e9) }
        guard let (back, _) = try admitted(admission, 9) else { return nil }
        return (admission, fresh, back)
    }

    @Test func connectionOpenedSoonerThanItsNetworkWasToldToRetryHasNoGrace() throws {
        guard let (admission, fresh, back) = try Self.toldToWaitAndBack(retryAfter: .seconds(1)) else { return }
        // Both have sent nothing and are younger than 100 ms; 192.0.2.1's is the older. Only it has
        // a grace: the newcomer takes the slot of the connection that came back too soon.
        guard
            case .admitted(_, let reclaimed) = admission.admit(
                try Self.address("192.0.2.10"), channel: EmbeddedChannel())
        else {
            Issue.record("refused although a connection without a grace held a slot")
            return
        }
        #expect(reclaimed === back)
        #expect(reclaimed !== fresh)
    }

    @Test func connectionOpenedAfterItsNetworksRetryAfterHasItsGrace() throws {
        // Told to wait 1 ms, back after 20 ms: both new connections are in their grace, and the
        // older goes first.
        guard
            let (admission, fresh, _) = try Self.toldToWaitAndBack(
                retryAfter: .milliseconds(1), waiting: .milliseconds(20))
        else { return }
        guard
            case .admitted(_, let reclaimed) = admission.admit(
                try Self.address("192.0.2.10"), channel: EmbeddedChannel())
        else {
            Issue.record("refused although a connection in its grace was past the newest")
            return
        }
        #expect(reclaimed === fresh)
    }
}
