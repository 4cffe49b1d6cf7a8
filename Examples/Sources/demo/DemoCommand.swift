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

    @Option(name: .long, help: "Seconds before a request times out.")
    var timeout: Double = 10

    @Flag(name: .long, help: "Allow plain http:// to a host other than loopback (not recommended).")
    var allowInsecureHTTP = false

    // GRAPH: the diagnostics `--graph` flag goes here. It should trace the resolutions made by
    // `DemoFlow.run()` (see `runFlow` below) and print the resolved graph after the transcript.

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
        guard timeout > 0 else { throw ValidationError("--timeout must be greater than 0") }
    }

    func run() async throws {
        let transcript = Transcript()
        let cacheDirectory =
            cacheDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("DependencyKitDemo", isDirectory: true)

        let server: UsersServer?
        let baseURL: URL
        if let external = self.baseURL.flatMap(URL.init(string:)) {
            server = nil
            baseURL = external
        } else {
            let started = try await UsersServer.start()
            server = started
            baseURL = started.baseURL
        }

        transcript.title("DependencyKit demo")
        transcript.detail("server", baseURL.absoluteString + (server == nil ? "" : " (Users API, in this process)"))
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

        let outcome: Result<Void, DemoFlow.StepFailed>
        do {
            try await runFlow(transcript: transcript, signUpExtraUser: server != nil)
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        try await server?.stop()

        transcript.blank()
        switch outcome {
        case .success:
            print("All done: every step went through AppCore's workers, resolved from AppDependency.")
        case .failure(let failure):
            transcript.failure(failure.step, failure.reason)
            throw ExitCode.failure
        }
    }

    /// The hook for diagnostics: everything resolved while the flow runs happens inside here.
    private func runFlow(transcript: Transcript, signUpExtraUser: Bool) async throws(DemoFlow.StepFailed) {
        try await DemoFlow(transcript: transcript, signUpExtraUser: signUpExtraUser).run()
    }
}
