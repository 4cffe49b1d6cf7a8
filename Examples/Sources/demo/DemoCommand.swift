import AppCore
import ArgumentParser
import DependencyKit
import Foundation
import UsersAPI

/// `swift run --package-path Examples demo`: the AppCore workers against a real Users API.
@main
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Sign up, log in, fetch users and log out through AppCore's workers.",
        discussion: """
            By default the demo starts the Users API in this process on 127.0.0.1 with a free \
            port and talks to it over real HTTP. Use --base-url to talk to a server you run \
            yourself instead. Passwords and tokens are never printed.
            """
    )

    @Option(name: .long, help: "Use the Users API at this URL instead of starting one in-process.")
    var baseURL: String?

    @Option(name: .long, help: "Directory for the users cache (default: a folder in the temporary directory).")
    var cacheDirectory: String?

    @Option(
        name: .long,
        help: "SQLite file for the in-process server's users (default: a new temporary file, removed after the run)."
    )
    var database: String?

    @Option(name: .long, help: "Seconds before a request times out.")
    var timeout: Double = 10

    @Flag(name: .long, help: "Allow plain http:// to a host other than loopback (not recommended).")
    var allowInsecureHTTP = false

    @Flag(name: .long, help: "After the run, print the graph of everything the flow resolved.")
    var graph = false

    @Option(name: .long, help: "How --graph prints the graph: text, dot (Graphviz) or mermaid.")
    var graphFormat: GraphFormat = .text

    func validate() throws {
        if let baseURL {
            guard let url = URL(string: baseURL), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https", url.host != nil
            else {
                throw ValidationError(
                    "--base-url must be an http:// or https:// URL with a host, e.g. http://127.0.0.1:8080"
                )
            }
        }
        // The same rule HTTPConfiguration applies: finite, more than zero, at most a year.
        guard timeout > 0, HTTPConfiguration.timeoutRange.contains(timeout) else {
            throw ValidationError(
                "--timeout must be a number of seconds greater than 0 and at most "
                    + "\(Int(HTTPConfiguration.timeoutRange.upperBound)) (one year)"
            )
        }
    }

    func run() async throws {
        let transcript = Transcript()
        let cacheDirectory =
            cacheDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("DependencyKitDemo", isDirectory: true)

        let server: UsersServer?
        let baseURL: URL
        var database: DemoDatabase?
        if let external = self.baseURL.flatMap(URL.init(string:)) {
            server = nil
            baseURL = external
        } else {
            database = try DemoDatabase(path: self.database)
            let started: UsersServer
            do {
                started = try await UsersServer.start(container: ServerCoreDependency(databasePath: database?.path))
            } catch {
                database?.removeIfTemporary()
                throw error
            }
            server = started
            baseURL = started.baseURL
        }
        defer { database?.removeIfTemporary() }

        transcript.title("DependencyKit demo")
        transcript.detail("server", baseURL.absoluteString + (server == nil ? "" : " (Users API, in this process)"))
        if let database { transcript.detail("database", database.path + (database.isTemporary ? " (temporary)" : "")) }
        transcript.detail("cache", cacheDirectory.path)
        transcript.detail("container", "AppDependency: CoreDependency")
        transcript.blank()

        DependencyInjector.dependencies = AppDependency(
            baseURL: baseURL,
            cacheDirectory: cacheDirectory,
            allowsInsecureHTTP: allowInsecureHTTP,
            timeout: timeout,
            report: { message in transcript.note(message) }
        )

        let signUpExtraUser = server != nil
        let outcome: Result<Void, DemoFlow.StepFailed>
        var resolved: ResolutionGraph?
        if graph {
            // Only this task and its child tasks are traced: the in-process server's own
            // resolutions, made in its request handlers, stay out of the picture.
            (outcome, resolved) = await Diagnostics.trace {
                await flowOutcome(transcript: transcript, signUpExtraUser: signUpExtraUser)
            }
        } else {
            outcome = await flowOutcome(transcript: transcript, signUpExtraUser: signUpExtraUser)
        }
        try await server?.stop()

        if let resolved {
            transcript.blank()
            print(graphFormat.render(resolved))
        }
        transcript.blank()
        switch outcome {
        case .success:
            print("All done: every step went through AppCore's workers, resolved from AppDependency.")
        case .failure(let failure):
            transcript.failure(failure.step, failure.reason)
            throw ExitCode.failure
        }
    }

    /// Runs the flow; everything it resolves happens inside here, which is what `--graph` traces.
    private func flowOutcome(transcript: Transcript, signUpExtraUser: Bool) async -> Result<Void, DemoFlow.StepFailed> {
        do {
            try await DemoFlow(transcript: transcript, signUpExtraUser: signUpExtraUser).run()
            return .success(())
        } catch {
            return .failure(error)
        }
    }
}

/// How `--graph` prints the resolution graph.
enum GraphFormat: String, ExpressibleByArgument, CaseIterable {
    /// One indented line per resolution.
    case text
    /// Graphviz's DOT language: copy the `digraph` block into a file and run `dot -Tsvg` on it.
    case dot
    /// A Mermaid flowchart, for Markdown.
    case mermaid

    func render(_ graph: ResolutionGraph) -> String {
        switch self {
        case .text: "Resolved graph:\n" + graph.renderText()
        case .dot: graph.renderDOT(name: "demo")
        case .mermaid: graph.renderMermaid()
        }
    }
}
