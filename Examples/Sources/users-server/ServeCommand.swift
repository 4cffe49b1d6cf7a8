import ArgumentParser
import DependencyKit
import Foundation
import UsersAPI

/// `swift run --package-path Examples users-server`: the Users API on its own, until Ctrl-C.
@main
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users-server",
        abstract: "Serve the Users API on its own, with its users in SQLite.",
        discussion: """
            Accounts and sessions are kept in an SQLite file (--database, or UsersAPI/users.sqlite \
            in your application-support directory), so they survive a restart. Stop with Ctrl-C.
            """
    )

    @Option(
        name: .long,
        help: "Address to bind: an IPv4 or IPv6 address (::1, or :: for every IPv4 and IPv6 address) or a name.")
    var host = "127.0.0.1"

    @Option(name: .long, help: "Port to bind; 0 picks a free one.")
    var port = 8080

    @Option(name: .long, help: "SQLite file for users and sessions.")
    var database: String?

    @Flag(name: .long, help: "Keep users in memory instead (lost when the server stops).")
    var inMemory = false

    @Option(
        name: .long, help: "PBKDF2 iterations for new passwords (lower only to measure storage, never in production).")
    var passwordIterations = 5_000

    @Option(
        name: .long,
        help: """
            How GET /users/me gets its services: 'container' (resolved per request in a dependency \
            scope, like every route) or 'hand' (built once at start-up, no container, no scope), to \
            compare the two.
            """)
    var wiring: WiringOption = .container

    func validate() throws {
        guard (1...PBKDF2PasswordHasher.maximumIterations).contains(passwordIterations) else {
            throw ValidationError("--password-iterations must be 1 to \(PBKDF2PasswordHasher.maximumIterations)")
        }
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
    }

    func run() async throws {
        let container = CommandLineServerDependency(
            databasePath: database,
            inMemory: inMemory,
            passwordIterations: passwordIterations
        )
        let server = try await UsersServer.start(
            container: container, host: host, port: port, wiring: wiring.wiring)
        let storage = inMemory ? "in memory" : container.resolveDatabaseConfiguration().path
        print(
            "Users API on \(server.baseURL.absoluteString) (bound to \(server.host)), users \(storage),"
                + " GET /users/me wired by \(wiring). Ctrl-C stops it.")
        // The server installs no signal handler; the default SIGINT action ends the process.
        while true { try await Task.sleep(for: .seconds(3600)) }
    }
}

/// `--wiring`, one case for each ``UsersRoutes/Wiring``.
enum WiringOption: String, ExpressibleByArgument, CaseIterable {
    case container
    case hand

    var wiring: UsersRoutes.Wiring {
        switch self {
        case .container: .container
        case .hand: .hand
        }
    }
}

/// The production container with the command line's choices, each one overridden resolve.
///
/// `@unchecked Sendable`: Swift makes every subclass of a container restate it. It is sound
/// because this class stores only `let`s of Sendable values (state lives in shared instances).
final class CommandLineServerDependency: ServerCoreDependency, @unchecked Sendable {
    private let inMemory: Bool
    private let passwordIterations: Int

    init(databasePath: String?, inMemory: Bool, passwordIterations: Int) {
        self.inMemory = inMemory
        self.passwordIterations = passwordIterations
        super.init(databasePath: databasePath)
    }

    override func resolveUserRepository() -> any UserRepository {
        inMemory ? appShared { InMemoryUserRepository() } : super.resolveUserRepository()
    }

    override func resolvePasswordHasher() -> any PasswordHasher {
        fresh { PBKDF2PasswordHasher(iterations: passwordIterations) }
    }
}
