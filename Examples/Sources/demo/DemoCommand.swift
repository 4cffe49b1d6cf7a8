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
        abstract: "Sign up, log in, fetch users, go offline and log out through AppCore's workers.",
        discussion: """
            By default the demo starts the Users API in this process on 127.0.0.1 with a free \
            port and talks to it over real HTTP. Use --base-url to talk to a server you run \
            yourself instead. Passwords and tokens are never printed.
            """
    )

    @Option(name: .long, help: "Use the Users API at this URL instead of starting one in-process.")
    var baseURL: String?

    @Option(
        name: .long,
        help: "Directory for the users cache (default: a new private temporary directory, removed after the run)."
    )
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

    @Flag(name: .long, help: "After the run, print the graphs of what the flow resolved, online and offline.")
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
        try await run(transcript: Transcript(), installation: .global)
    }

    /// How the demo puts its container in place.
    enum Installation {
        /// `DependencyInjector.dependencies = AppDependency(…)`, once at launch, as an app does.
        case global
        /// `withDependencies(AppDependency(…)) { … }` around the run, so that tests running in
        /// parallel in one process keep their own containers.
        case scoped
    }

    /// The whole demo, writing to `transcript`.
    func run(transcript: Transcript, installation: Installation) async throws {
        let files = try DemoFiles(database: database, cacheDirectory: cacheDirectory, needsDatabase: baseURL == nil)
        defer { files.removeTemporary() }

        let server: UsersServer?
        let baseURL: URL
        if let external = self.baseURL.flatMap(URL.init(string:)) {
            server = nil
            baseURL = external
        } else {
            let started = try await UsersServer.start(container: ServerCoreDependency(databasePath: files.databasePath))
            server = started
            baseURL = started.baseURL
        }

        transcript.title("DependencyKit demo")
        transcript.detail("server", baseURL.absoluteString + (server == nil ? "" : " (Users API, in this process)"))
        if let path = files.databasePath {
            transcript.detail("database", path + (files.isDatabaseTemporary ? " (temporary)" : ""))
        }
        transcript.detail("cache", files.cacheDirectory.path + (files.isCacheTemporary ? " (temporary)" : ""))
        transcript.blank()

        let app = AppDependency(
            settings: .init(
                baseURL: baseURL,
                cacheDirectory: files.cacheDirectory,
                allowsInsecureHTTP: allowInsecureHTTP,
                timeout: timeout,
                report: { message in transcript.note(message) }
            )
        )
        let flow = DemoFlow(transcript: transcript, signUpExtraUser: server != nil)
        let outcome: DemoFlow.Outcome
        switch installation {
        case .global:
            DependencyInjector.dependencies = app
            outcome = await flow.run()
        case .scoped:
            outcome = await withDependencies(app) { await flow.run() }
        }
        try await server?.stop()

        if graph {
            transcript.blank()
            transcript.line(graphFormat.render(outcome))
        }
        transcript.blank()
        if let failure = outcome.failure {
            transcript.failure(failure.step, failure.reason)
            throw ExitCode.failure
        }
        transcript.line("All done: every step went through AppCore's workers, resolved from AppDependency.")
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

    /// The flow's graph, then the offline step's; text explains how to read the brackets.
    func render(_ outcome: DemoFlow.Outcome) -> String {
        var parts: [String] = []
        if let graph = outcome.resolved {
            parts.append(render(graph, name: "demo", heading: "Resolved graph (the flow, from AppDependency):"))
        }
        if let graph = outcome.resolvedOffline {
            parts.append(
                render(
                    graph, name: "offline",
                    heading: "Resolved graph (step 5, inside withDependencies(OfflineDependency)):")
            )
        }
        if self == .text {
            parts.append(
                """
                Reading the brackets: [fresh, AppDependency] is AppDependency's own override;
                [fresh, AppDependency, inherited from CoreDependency] runs code it inherited from CoreDependency.
                """
            )
        }
        return parts.joined(separator: "\n\n")
    }

    private func render(_ graph: Diagnostics.ResolutionGraph, name: String, heading: String) -> String {
        switch self {
        case .text: heading + "\n" + graph.renderText()
        case .dot: graph.renderDOT(name: name)
        case .mermaid: graph.renderMermaid()
        }
    }
}
