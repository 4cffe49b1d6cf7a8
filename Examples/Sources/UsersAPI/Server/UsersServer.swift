public import Foundation
public import Hummingbird
internal import HummingbirdCore
public import Logging
internal import NIOCore
internal import NIOHTTP1
internal import NIOHTTPTypes
internal import NIOHTTPTypesHTTP1
internal import ServiceLifecycle

/// A running Users API server.
///
/// ```swift
/// let server = try await UsersServer.start()          // 127.0.0.1, a free port
/// print(server.baseURL)                               // http://127.0.0.1:54321
/// try await server.stop()
/// ```
///
/// The server runs in the background of the calling process until ``stop()``; it does not
/// install signal handlers, so the host program keeps control of SIGINT and SIGTERM.
public final class UsersServer: Sendable {
    /// The address the server listens on.
    public let host: String
    /// The bound port (the real one when started with port 0).
    public let port: Int
    private let serviceGroup: ServiceGroup
    private let running: Task<Void, any Error>

    /// The base URL to point a client at: `http://host:port`, with an IPv6 host in brackets
    /// (`http://[::1]:8080`). A server bound to every address (`0.0.0.0` or `::`) is reached
    /// through loopback (`127.0.0.1` or `[::1]`), the one of those addresses every client on
    /// the machine can connect to.
    public let baseURL: URL

    private init(
        host: String, port: Int, baseURL: URL, serviceGroup: ServiceGroup, running: Task<Void, any Error>
    ) {
        self.host = host
        self.port = port
        self.baseURL = baseURL
        self.serviceGroup = serviceGroup
        self.running = running
    }

    /// Starts a server and returns once it accepts connections.
    ///
    /// - Parameters:
    ///   - container: The container every request is served with; by default a
    ///     ``ServerCoreDependency``, whose users live in the SQLite file at
    ///     ``SQLiteUserRepository/Configuration/defaultPath``. Its repository is opened (and
    ///     migrated) here, before the server binds.
    ///   - host: The address to bind; loopback by default.
    ///   - port: The port to bind; `0` picks a free one (read it from ``port``).
    ///   - limits: Connection limits and timeouts; the defaults suit a small public server.
    ///   - logger: Where the server logs; by default warnings and errors only, to standard error.
    ///     Requests are never logged with their bodies or `Authorization` headers.
    ///   - wiring: How `GET /users/me` gets its services (``UsersRoutes/Wiring``); through the
    ///     container by default.
    ///   - configureRouter: Adds extra routes or middleware after the API's own.
    /// - Returns: The running server.
    /// - Throws: ``UsersServerError/repositoryUnavailable(_:)`` when the container's repository
    ///   cannot be opened (nothing is bound then), ``UsersServerError/invalidHost(_:)`` when no
    ///   URL can name `host`, ``UsersServerError/didNotStart`` or the binding error when the
    ///   server cannot listen.
    public static func start(
        container: any ServerDependency = ServerCoreDependency(),
        host: String = "127.0.0.1",
        port: Int = 0,
        limits: Limits = Limits(),
        logger: Logger? = nil,
        wiring: UsersRoutes.Wiring = .container,
        configureRouter: (Router<BasicRequestContext>) -> Void = { _ in }
    ) async throws -> UsersServer {
        // Open the store first: a locked or corrupt database stops the start, not the first request.
        do {
            try await container.resolveUserRepository().prepare()
        } catch {
            throw UsersServerError.repositoryUnavailable(error)
        }
        let router = Router()
        UsersRoutes.install(on: router, container: container, wiring: wiring)
        configureRouter(router)
        return try await start(serving: router, host: host, port: port, limits: limits, logger: logger)
    }

    /// What the server allows a connection, so that idle or half-open connections cannot use up
    /// its file descriptors and lock legitimate clients out, however many addresses they come from.
    ///
    /// All addresses share one budget of ``maximumConnections`` slots, shared out fairly by
    /// network (an IPv4 address, an IPv6 /48). A connection answering a request is never
    /// reclaimed. While its network holds no more than its fair share (the slots divided by the
    /// networks holding any, at least one), neither is a connection sending its request head (a
    /// byte within the last second), one kept alive between requests, nor one of the newest
    /// eighth of the slots among connections accepted in the last 100 ms and not yet read from
    /// (their grace, for a request sent on connecting and not read yet). A connection opened
    /// sooner than ``retryAfter`` after its network was answered `503` has no grace. When every
    /// slot is taken, a newcomer takes, in this order: a silent, unread or idle connection of a
    /// network over its share, a sending one of such a network; then, of a network within its
    /// share, an unread connection opened before its ``retryAfter`` was up, a silent one
    /// (nothing read 100 ms after it was accepted, or no byte of its head for a second), and
    /// last an older one in its grace; always from the network holding the most (at least two
    /// more than the newcomer's), its oldest first. A client at an address of its own is
    /// therefore served while other addresses hold connections that send nothing, however many
    /// addresses they use and however fast they reopen them, and a client's one kept-alive
    /// connection stays open until ``idleTimeout``.
    /// A request head must be complete ``idleTimeout`` after the connection starts waiting for
    /// it. A connection the server will not take, past its address's share or when no slot can
    /// be reclaimed, is answered `503 Service Unavailable` with a `Retry-After` of
    /// ``retryAfter`` and closed; the refused wait for their clients to read that in a pool of
    /// their own whose oldest is closed when it is full, so refusals never stop the server
    /// accepting and its listen queue drains.
    public struct Limits: Sendable, Hashable {
        /// How long a connection may wait for a complete request head (from its start, or from
        /// the end of the previous response), or go without a body part, before the server
        /// closes it. A client that opens connections and sends nothing, or trickles a request
        /// head byte by byte (slowloris), is cut off after this long.
        public var idleTimeout: Duration
        /// How long a request may take to arrive once its head has: a client that trickles a
        /// body byte by byte, each byte resetting the idle timer, is cut off after this long.
        public var requestReadTimeout: Duration
        /// The most connections held at once, from all addresses; past it a newcomer takes an
        /// idle or half-open connection's slot, or is refused with `503`. The server also
        /// accepts up to a quarter more sockets (at least 16) for as long as it takes to answer
        /// and close them; keep the sum well below the process's open-files limit.
        public var maximumConnections: Int
        /// The most connections one peer address may hold at once; a connection past it is
        /// answered `503` and closed. IPv4 peers (IPv4-mapped ones on a dual-stack listener
        /// included) are counted per address, IPv6 peers per /64, and an IPv6 /48 may hold four
        /// times this (and four times ``maximumPendingConnectionsPerAddress``). Keep it a small
        /// share of ``maximumConnections``, so one address cannot take every slot from the others.
        ///
        /// Behind a reverse proxy every client has the proxy's address: raise this and
        /// ``maximumPendingConnectionsPerAddress`` to ``maximumConnections`` there, and bound
        /// clients at the proxy instead.
        public var maximumConnectionsPerAddress: Int
        /// The most of one address's connections that may be open without having sent a
        /// complete request head: a client that reopens half-requests as fast as they are
        /// closed (a reconnecting slowloris) holds this many slots, not all of them.
        public var maximumPendingConnectionsPerAddress: Int
        /// What a refused connection's `Retry-After` says, in whole seconds (rounded up, at least 1).
        /// A connection its network opens sooner than that has no grace (see ``Limits``).
        public var retryAfter: Duration

        /// Creates limits.
        /// - Parameters:
        ///   - idleTimeout: How long a connection may stay idle; 15 seconds by default.
        ///   - requestReadTimeout: How long a request's body may take; 30 seconds by default.
        ///   - maximumConnections: The most connections open at once; 512 by default.
        ///   - maximumConnectionsPerAddress: The most connections one address may hold; 64 by
        ///     default, an eighth of the default total.
        ///   - maximumPendingConnectionsPerAddress: The most connections one address may hold
        ///     before their first request head is complete; 32 by default (`wrk -c32` opens that many at once).
        ///   - retryAfter: What a refused connection is told to wait; 1 second by default.
        public init(
            idleTimeout: Duration = .seconds(15),
            requestReadTimeout: Duration = .seconds(30),
            maximumConnections: Int = 512,
            maximumConnectionsPerAddress: Int = 64,
            maximumPendingConnectionsPerAddress: Int = 32,
            retryAfter: Duration = .seconds(1)
        ) {
            guard maximumConnections > 0, maximumConnectionsPerAddress > 0, maximumPendingConnectionsPerAddress > 0
            else {
                fatalError(
                    "UsersServer.Limits: maximumConnections (\(maximumConnections)), maximumConnectionsPerAddress"
                        + " (\(maximumConnectionsPerAddress)) and maximumPendingConnectionsPerAddress"
                        + " (\(maximumPendingConnectionsPerAddress)) must each be at least 1"
                )
            }
            self.idleTimeout = idleTimeout
            self.requestReadTimeout = requestReadTimeout
            self.maximumConnections = maximumConnections
            self.maximumConnectionsPerAddress = maximumConnectionsPerAddress
            self.maximumPendingConnectionsPerAddress = maximumPendingConnectionsPerAddress
            self.retryAfter = retryAfter
        }

        /// ``retryAfter`` in whole seconds, rounded up, at least 1.
        var retryAfterSeconds: Int {
            let (seconds, attoseconds) = retryAfter.components
            return Int(clamping: max(1, seconds + (attoseconds > 0 ? 1 : 0)))
        }

        /// The most sockets open at once: the slots, and room to answer and close the refused.
        var maximumSockets: Int {
            let (sum, overflow) = maximumConnections.addingReportingOverflow(max(16, maximumConnections / 4))
            return overflow ? .max : sum
        }

        /// The most refused connections held open while their clients read the answer: the
        /// sockets past the slots, less a few so the server never stops accepting while it
        /// closes the oldest to make room for the next.
        var maximumRefusals: Int { max(8, max(16, maximumConnections / 4) - 8) }
    }

    /// Starts a server for any router and returns once it accepts connections.
    ///
    /// Tests use it to stand up a deliberately misbehaving server with the same lifecycle.
    /// - Parameters:
    ///   - router: The routes to serve.
    ///   - host: The address to bind; loopback by default.
    ///   - port: The port to bind; `0` picks a free one (read it from ``port``).
    ///   - limits: Connection limits and timeouts.
    ///   - logger: Where the server logs; by default warnings and errors only.
    /// - Returns: The running server.
    /// - Throws: ``UsersServerError/invalidHost(_:)`` when no URL can name `host`,
    ///   ``UsersServerError/didNotStart`` or the binding error when the server cannot listen.
    public static func start<Context: RequestContext>(
        serving router: Router<Context>,
        host: String = "127.0.0.1",
        port: Int = 0,
        limits: Limits = Limits(),
        logger: Logger? = nil
    ) async throws -> UsersServer where Context: InitializableFromSource<ApplicationRequestContextSource> {
        // `[::1]` as a URL spells it is `::1` to bind.
        let host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard baseURL(host: host, port: 0) != nil else { throw UsersServerError.invalidHost(host) }
        let logger = logger ?? Self.quietLogger()
        let (ports, portReported) = AsyncStream.makeStream(of: Int.self)
        let readTimeout = TimeAmount(limits.requestReadTimeout)
        let http1 = HTTP1Channel.Configuration(
            additionalChannelHandlers: [RequestReadDeadline(timeout: readTimeout)],
            idleTimeout: TimeAmount(limits.idleTimeout)
        )
        let peers = PeerAdmission(
            maximumConnections: limits.maximumConnections,
            maximumPerAddress: limits.maximumConnectionsPerAddress,
            maximumPendingPerAddress: limits.maximumPendingConnectionsPerAddress,
            maximumRefusals: limits.maximumRefusals,
            // Remembered for at most a day, whatever the header says.
            retryAfter: .seconds(Int64(min(limits.retryAfterSeconds, 86_400)))
        )
        let retryAfter = limits.retryAfterSeconds
        let application = Application(
            router: router,
            server: HTTPServerBuilder { responder in
                HTTP1ClosingChannel(
                    base: HTTP1Channel(responder: responder, configuration: http1), peers: peers,
                    retryAfter: retryAfter)
            },
            configuration: .init(
                address: .hostname(host, port: port),
                serverName: "UsersAPI",
                backlog: 1024,
                availableConnectionsDelegate: MaximumAvailableConnections(limits.maximumSockets, logger: logger)
            ),
            onServerRunning: { channel in
                portReported.yield(channel.localAddress?.port ?? port)
                portReported.finish()
            },
            logger: logger
        )
        let serviceGroup = ServiceGroup(
            configuration: .init(services: [application], gracefulShutdownSignals: [], logger: logger)
        )
        let running = Task {
            // Ends the stream when the group stops early (a bind failure), so `start` never hangs.
            defer { portReported.finish() }
            try await serviceGroup.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let boundPort = await iterator.next() else {
            try await running.value
            throw UsersServerError.didNotStart
        }
        guard let baseURL = Self.baseURL(host: host, port: boundPort) else {
            // Checked before binding; a name that bound but makes no URL is not served.
            await serviceGroup.triggerGracefulShutdown()
            try await running.value
            throw UsersServerError.invalidHost(host)
        }
        return UsersServer(
            host: host, port: boundPort, baseURL: baseURL, serviceGroup: serviceGroup, running: running)
    }

    /// Stops accepting connections, lets requests in flight finish, and returns when the server
    /// has shut down.
    /// - Throws: What the server failed with while running, if anything.
    public func stop() async throws {
        await serviceGroup.triggerGracefulShutdown()
        try await running.value
    }

    /// `http://host:port` for a host to bind: an IPv6 literal in brackets, its zone index
    /// (`%eth0`) percent-encoded as RFC 6874 asks, an unspecified address (`0.0.0.0`, `::`)
    /// replaced by loopback; `nil` when no URL can name the host.
    static func baseURL(host: String, port: Int) -> URL? {
        var bare = host
        if bare.hasPrefix("["), bare.hasSuffix("]") { bare = String(bare.dropFirst().dropLast()) }
        let authority: String
        if bare.contains(":") {
            let isUnspecified = bare.allSatisfy { $0 == "0" || $0 == ":" }
            authority = isUnspecified ? "[::1]" : "[\(bare.replacingOccurrences(of: "%", with: "%25"))]"
        } else {
            authority = bare == "0.0.0.0" ? "127.0.0.1" : bare
        }
        guard !authority.isEmpty, let url = URL(string: "http://\(authority):\(port)"), url.host != nil else {
            return nil
        }
        return url
    }

    private static func quietLogger() -> Logger {
        var logger = Logger(label: "UsersAPI")
        logger.logLevel = .warning
        return logger
    }
}

/// Why ``UsersServer/start(container:host:port:limits:logger:wiring:configureRouter:)`` failed.
public enum UsersServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server stopped before it reported a bound port.
    case didNotStart
    /// The container's repository could not be opened; the server did not start.
    case repositoryUnavailable(UserRepositoryStartupError)
    /// The host is neither an IP address nor a name a URL can hold; nothing was bound.
    case invalidHost(String)

    public var description: String {
        switch self {
        case .didNotStart: "the server stopped before it was listening"
        case .repositoryUnavailable(let reason): reason.description
        case .invalidHost(let host): "\(host.debugDescription) is not an address or host name to serve on"
        }
    }
}

/// HTTP/1 as Hummingbird serves it, with every connection admitted, refused or reclaimed by
/// ``PeerAdmission``, plus the rules for HTTP/1.0 it leaves out (RFC 9112 §9.3
/// and RFC 7230 §A.1.2):
/// - a request that does not ask to keep the connection alive (HTTP/1.0 without
///   `Connection: keep-alive`) gets its reply and then the connection is closed; without it such
///   a client (`ab`) waits for an end of response that never comes;
/// - an HTTP/1.0 request with `Connection: keep-alive` (`ab -k`) gets `Connection: keep-alive`
///   on its reply, which is how an HTTP/1.0 client learns the connection stays open; a reply
///   without a `Content-Length` (which HTTP/1.0 cannot frame) says `Connection: close` and
///   the connection closes after it.
struct HTTP1ClosingChannel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    let base: HTTP1Channel
    /// Admission (see ``UsersServer/Limits``), shared by every connection.
    let peers: PeerAdmission
    /// Whole seconds for a refusal's `Retry-After`.
    let retryAfter: Int

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let decision = peers.admit(channel.remoteAddress, channel: channel)
        let ticket: PeerAdmission.Ticket?
        switch decision {
        case .admitted(let admitted, let reclaimed):
            ticket = admitted
            channel.closeFuture.whenComplete { _ in admitted.release() }
            // A client sends its request just after its connect completes, and a busy machine
            // may take a while to read it: until then a new connection is not taken for silent.
            channel.eventLoop.scheduleTask(in: PeerAdmission.settleTime) { admitted.settle() }
            if let reclaimed { reclaim(reclaimed, retryAfter: retryAfter) }
        case .refused:
            ticket = nil
        }
        let retryAfter = retryAfter
        let peers = peers
        return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            guard let ticket else {
                // Answered before a byte is read, and closed. (Failing the setup instead would
                // reach the listening channel as an error, and the client would get no answer.)
                if case .refused(let reason) = decision {
                    try channel.pipeline.syncOperations.addHandler(
                        ConnectionRefusal(reason: reason, retryAfter: retryAfter), position: .first)
                    peers.refusing(channel)?.close(promise: nil)
                }
                return value
            }
            // Before the conversion to HTTP types, which drops the protocol version.
            let codec = try channel.pipeline.syncOperations.handler(type: HTTP1ToHTTPServerCodec.self)
            let rules = HTTP10ConnectionRules(ticket: ticket)
            try channel.pipeline.syncOperations.addHandler(rules, position: .before(codec))
            try channel.pipeline.syncOperations.addHandler(HeadProgress(rules: rules), position: .first)
            return value
        }
    }

    /// Tells ``HTTP10ConnectionRules`` that bytes arrived, after the HTTP decoder has seen them:
    /// a head that arrived whole costs nothing more, and only a head still incomplete marks its
    /// connection as sending.
    final class HeadProgress: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        private let rules: HTTP10ConnectionRules

        init(rules: HTTP10ConnectionRules) {
            self.rules = rules
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            context.fireChannelRead(data)
            rules.bytesArrived(on: context.channel)
        }
    }

    /// Frees the slot of a connection whose slot a newcomer took: a connection that has not
    /// sent a complete request head is answered `503`; an idle one is closed, as its idle
    /// timeout would have; one whose request arrived meanwhile is closed after its answer.
    func reclaim(_ channel: any Channel, retryAfter: Int) {
        let peers = peers
        channel.eventLoop.execute {
            let operations = channel.pipeline.syncOperations
            guard let rules = try? operations.handler(type: HTTP10ConnectionRules.self) else {
                channel.close(promise: nil)
                return
            }
            switch rules.reclaim() {
            case .refuse:
                do {
                    try operations.addHandler(
                        ConnectionRefusal(reason: .serverFull, retryAfter: retryAfter), position: .first)
                    peers.refusing(channel)?.close(promise: nil)
                } catch {
                    channel.close(promise: nil)
                }
            case .close: channel.close(promise: nil)
            case .closeAfterReply: break
            }
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }

    /// Marks non-persistent requests with `Connection: close` (the signal Hummingbird's
    /// connection loop already honours), answers HTTP/1.0 keep-alive requests in kind, and
    /// tells the connection's ``PeerAdmission/Ticket`` when a request starts and its answer ends.
    final class HTTP10ConnectionRules: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias InboundOut = HTTPServerRequestPart
        typealias OutboundIn = HTTPServerResponsePart
        typealias OutboundOut = HTTPServerResponsePart

        /// For each request whose reply is not yet written, in order: whether it is an
        /// HTTP/1.0 request that asked for keep-alive.
        private var keepAliveRequests: [Bool] = []
        private var closeAfterReply = false
        /// Requests whose head arrived and whose reply has not ended.
        private var requestsInFlight = 0
        private var requestsSeen = 0
        private let ticket: PeerAdmission.Ticket
        /// Whether the connection waits for a request head (none is being answered).
        private var awaitingHead = true
        /// Whether a reply being written is the connection's last (its request, or the reply,
        /// says `Connection: close`).
        private var lastReply = false
        /// When the ticket last heard that the head is arriving (uptime nanoseconds).
        private var progressReported: UInt64 = 0

        init(ticket: PeerAdmission.Ticket) {
            self.ticket = ticket
        }

        /// Bytes arrived and the decoder has read them; on the event loop. While the head is
        /// incomplete the connection counts as sending (at most four reports a second reach
        /// the shared admission state). Hummingbird's idle timeout, which only a complete head
        /// stops, bounds how long it may take however slowly it trickles.
        func bytesArrived(on channel: any Channel) {
            guard awaitingHead, channel.isActive else { return }
            let now = NIODeadline.now().uptimeNanoseconds
            if progressReported == 0 || now &- progressReported >= 250_000_000 {
                progressReported = now
                ticket.progressed()
            }
        }

        /// How a reclaimed connection is let go (see ``HTTP1ClosingChannel/reclaim(_:retryAfter:)``).
        enum Reclaim {
            case refuse
            case close
            case closeAfterReply
        }

        /// Decides how this connection, whose slot was taken, ends; on its event loop.
        func reclaim() -> Reclaim {
            if requestsInFlight > 0 {
                // Its request arrived after the slot was taken: answer it, then close.
                closeAfterReply = true
                return .closeAfterReply
            }
            return requestsSeen == 0 ? .refuse : .close
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .head(var head) = unwrapInboundIn(data) else {
                context.fireChannelRead(data)
                return
            }
            ticket.requestStarted()
            awaitingHead = false
            progressReported = 0
            requestsInFlight += 1
            requestsSeen += 1
            keepAliveRequests.append(head.version == .http1_0 && head.isKeepAlive)
            // A request that does not keep the connection alive gets its last reply.
            if !head.isKeepAlive { lastReply = true }
            guard !head.isKeepAlive,
                !head.headers[canonicalForm: "connection"].contains(where: { $0.lowercased() == "close" })
            else {
                context.fireChannelRead(data)
                return
            }
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.fireChannelRead(wrapInboundOut(.head(head)))
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            switch unwrapOutboundIn(data) {
            // An interim reply (100 Continue) is not the request's answer.
            case .head(var head) where head.status.code >= 200 && !keepAliveRequests.isEmpty:
                let http10KeepAlive = keepAliveRequests.removeFirst()
                if closeAfterReply {
                    // Its slot was taken while the request was answered: the last reply here.
                    head.headers.replaceOrAdd(name: "connection", value: "close")
                } else if http10KeepAlive {
                    if head.headers.contains(name: "content-length") {
                        head.headers.replaceOrAdd(name: "connection", value: "keep-alive")
                    } else {
                        head.headers.replaceOrAdd(name: "connection", value: "close")
                        closeAfterReply = true
                    }
                }
                if head.headers[canonicalForm: "connection"].contains(where: { $0.lowercased() == "close" }) {
                    lastReply = true
                }
                context.write(wrapOutboundOut(.head(head)), promise: promise)
                return
            case .end:
                if requestsInFlight > 0 {
                    requestsInFlight -= 1
                    ticket.responseFinished()
                    if requestsInFlight == 0 { awaitingHead = true }
                }
                if lastReply, requestsInFlight == 0 {
                    // The connection serves nothing more: its slot is free now, not when the
                    // close is reported, so the client's next connection does not meet it.
                    lastReply = false
                    ticket.release()
                }
                guard closeAfterReply else { break }
                closeAfterReply = false
                let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
                let written = promise ?? context.eventLoop.makePromise()
                written.futureResult.whenComplete { _ in loopBound.value.close(promise: nil) }
                context.write(data, promise: written)
                return
            default:
                break
            }
            context.write(data, promise: promise)
        }
    }
}

/// Closes a connection whose request, once its head has arrived, is not complete in time.
///
/// Hummingbird's idle timer restarts on every body part, so a body sent a byte at a time would
/// hold a connection forever; this deadline does not move.
final class RequestReadDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            deadline?.cancel()
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            deadline = context.eventLoop.scheduleTask(in: timeout) { loopBound.value.close(promise: nil) }
        case .end:
            deadline?.cancel()
            deadline = nil
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }
}
