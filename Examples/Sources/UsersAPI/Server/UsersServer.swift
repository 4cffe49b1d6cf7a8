public import Foundation
public import Hummingbird
public import Logging
internal import NIOCore
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

    /// The base URL to point a client at.
    public var baseURL: URL { URL(string: "http://\(host):\(port)")! }

    private init(host: String, port: Int, serviceGroup: ServiceGroup, running: Task<Void, any Error>) {
        self.host = host
        self.port = port
        self.serviceGroup = serviceGroup
        self.running = running
    }

    /// Starts a server and returns once it accepts connections.
    ///
    /// - Parameters:
    ///   - container: The container every request is served with; a fresh
    ///     ``ServerCoreDependency`` (no users) by default.
    ///   - host: The address to bind; loopback by default.
    ///   - port: The port to bind; `0` picks a free one (read it from ``port``).
    ///   - logger: Where the server logs; by default warnings and errors only, to standard error.
    ///     Requests are never logged with their bodies or `Authorization` headers.
    ///   - configureRouter: Adds extra routes or middleware after the API's own.
    /// - Returns: The running server.
    /// - Throws: ``UsersServerError/didNotStart`` or the binding error when the server cannot
    ///   listen.
    public static func start(
        container: any ServerDependency = ServerCoreDependency(),
        host: String = "127.0.0.1",
        port: Int = 0,
        logger: Logger? = nil,
        configureRouter: (Router<BasicRequestContext>) -> Void = { _ in }
    ) async throws -> UsersServer {
        let router = Router()
        UsersRoutes.install(on: router, container: container)
        configureRouter(router)
        return try await start(serving: router, host: host, port: port, logger: logger)
    }

    /// Starts a server for any router and returns once it accepts connections.
    ///
    /// Tests use it to stand up a deliberately misbehaving server with the same lifecycle.
    /// - Parameters:
    ///   - router: The routes to serve.
    ///   - host: The address to bind; loopback by default.
    ///   - port: The port to bind; `0` picks a free one (read it from ``port``).
    ///   - logger: Where the server logs; by default warnings and errors only.
    /// - Returns: The running server.
    /// - Throws: ``UsersServerError/didNotStart`` or the binding error when the server cannot
    ///   listen.
    public static func start<Context: RequestContext>(
        serving router: Router<Context>,
        host: String = "127.0.0.1",
        port: Int = 0,
        logger: Logger? = nil
    ) async throws -> UsersServer where Context: InitializableFromSource<ApplicationRequestContextSource> {
        let logger = logger ?? Self.quietLogger()
        let (ports, portReported) = AsyncStream.makeStream(of: Int.self)
        let application = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "UsersAPI"),
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
        return UsersServer(host: host, port: boundPort, serviceGroup: serviceGroup, running: running)
    }

    /// Stops accepting connections, lets requests in flight finish, and returns when the server
    /// has shut down.
    /// - Throws: What the server failed with while running, if anything.
    public func stop() async throws {
        await serviceGroup.triggerGracefulShutdown()
        try await running.value
    }

    private static func quietLogger() -> Logger {
        var logger = Logger(label: "UsersAPI")
        logger.logLevel = .warning
        return logger
    }
}

/// Why ``UsersServer/start(container:host:port:logger:configureRouter:)`` failed.
public enum UsersServerError: Error, Sendable, Hashable {
    /// The server stopped before it reported a bound port.
    case didNotStart
}
