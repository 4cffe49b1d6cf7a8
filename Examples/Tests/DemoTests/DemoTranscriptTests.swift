import ArgumentParser
import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import demo

/// The demo teaches the pattern: these tests run it end to end, in-process server and all, and
/// read what it prints.
@Suite struct DemoTranscriptTests {
    /// The whole flow — sign-up, log-in, the users, log-out — runs over the AsyncHTTPClient
    /// transport that `AppDependency` swaps in, and the transcript names it.
    @Test func containerSectionListsOverriddenResolvesApartFromInheritedOnes() async throws {
        let lines = try await runDemo()
        let start = try #require(lines.firstIndex(of: "Container: AppDependency, a CoreDependency subclass"))
        let section = Array(lines[start + 1..<start + 11]).map(collapsingSpaces)
        #expect(
            section == [
                "overridden in AppDependency",
                "resolveHTTPService() → AsyncHTTPService",
                "resolveHTTPConfiguration() → HTTPConfiguration",
                "resolveUsersCache() → UsersFileCacheStore",
                "resolveUsersCacheDirectory() → URL",
                "inherited from CoreDependency",
                "resolveAuthenticationWorker() → AuthenticationWorker",
                "resolveAuthenticationService() → AuthenticationNetworkService",
                "resolveUsersWorker() → UsersWorker",
                "resolveUsersStore() → UsersNetworkStore",
            ]
        )
        #expect(
            lines[start + 11]
                == "  cascade: UsersWorker → UsersNetworkStore → AsyncHTTPService → HTTPConfiguration"
                + " (AppDependency's override)"
        )
    }

    @Test func offlineScopeCascadesIntoTheWorkerWhichFallsBackToTheCache() async throws {
        let lines = try await runDemo()
        let start = try #require(lines.firstIndex { $0.hasPrefix("5. Offline") })
        let step = lines[start..<start + 5].map(collapsingSpaces)
        #expect(
            step == [
                "5. Offline ✓ withDependencies(OfflineDependency(from: app)) { … }: resolveHTTPService() swapped",
                "✓ cascade: UsersWorker → UsersNetworkStore → OfflineHTTPService (OfflineDependency's override)",
                "✗ fetching users: could not connect: offline, no request sent",
                "✓ from the cache: 2 users, as of step 4",
                "✓ after the block: AppDependency again",
            ]
        )
        // Back on the installed container, the network works again.
        #expect(lines[start + 5].hasPrefix("6. Log out"))
        #expect(lines.last == "All done: every step went through AppCore's workers, resolved from AppDependency.")
    }

    @Test func logOutResetsTheSessionScopeAndTheNextLogInGetsANewStore() async throws {
        let lines = try await runDemo().map(collapsingSpaces)
        let login = try #require(lines.firstIndex { $0.hasPrefix("2. Log in") })
        #expect(
            lines[login + 1].hasPrefix("✓ session store: ")
                && lines[login + 1].hasSuffix("signed in; every resolve this session shares it (shared(in: .session))")
        )
        let logout = try #require(lines.firstIndex { $0.hasPrefix("6. Log out") })
        #expect(lines[logout + 2] == "✓ the session lifetime was reset: the old store now holds no session")
        #expect(
            lines[logout + 3]
                == "7. Log in again ✓ a new session store holds the new session; the old one stays empty"
        )
    }

    @Test func graphMarksOverriddenAndInheritedResolvesInBothContainers() async throws {
        let lines = try await runDemo("--graph")
        let online = try #require(lines.firstIndex(of: "Resolved graph (the flow, from AppDependency):"))
        #expect(
            Array(lines[online + 1..<online + 11]) == [
                "resolveAuthenticationWorker() → AuthenticationWorker as AuthenticationWorkerType"
                    + " [fresh, AppDependency, inherited from CoreDependency]",
                "└─ resolveAuthenticationService() → AuthenticationNetworkService as AuthenticationService"
                    + " [fresh, AppDependency, inherited from CoreDependency]",
                "   └─ resolveHTTPService() → AsyncHTTPService as HTTPServiceType [live, AppDependency]",
                "      └─ resolveHTTPConfiguration() → HTTPConfiguration [fresh, AppDependency]",
                "resolveUsersWorker() → UsersWorker as UsersWorkerType"
                    + " [fresh, AppDependency, inherited from CoreDependency]",
                "├─ resolveUsersStore() → UsersNetworkStore as UsersStore"
                    + " [fresh, AppDependency, inherited from CoreDependency]",
                "│  └─ resolveHTTPService() → AsyncHTTPService as HTTPServiceType [live, AppDependency]",
                "│     └─ resolveHTTPConfiguration() → HTTPConfiguration [fresh, AppDependency]",
                "└─ resolveUsersCache() → UsersFileCacheStore as UsersCacheStore [fresh, AppDependency]",
                "   └─ resolveUsersCacheDirectory() → URL [fresh, AppDependency]",
            ]
        )
        let offline = try #require(
            lines.firstIndex(of: "Resolved graph (step 5, inside withDependencies(OfflineDependency)):")
        )
        #expect(
            Array(lines[offline + 1..<offline + 6]) == [
                "resolveUsersWorker() → UsersWorker as UsersWorkerType"
                    + " [fresh, OfflineDependency, inherited from CoreDependency]",
                "├─ resolveUsersStore() → UsersNetworkStore as UsersStore"
                    + " [fresh, OfflineDependency, inherited from CoreDependency]",
                "│  └─ resolveHTTPService() → OfflineHTTPService as HTTPServiceType [fresh, OfflineDependency]",
                "└─ resolveUsersCache() → UsersFileCacheStore as UsersCacheStore"
                    + " [fresh, OfflineDependency, inherited from AppDependency]",
                "   └─ resolveUsersCacheDirectory() → URL [fresh, OfflineDependency, inherited from AppDependency]",
            ]
        )
        #expect(lines.contains("Reading the brackets: [fresh, AppDependency] is AppDependency's own override;"))
    }

    @Test func dotGraphNamesTheClassWhoseCodeBuiltEachInheritedNode() async throws {
        let output = try await runDemo("--graph", "--graph-format", "dot").joined(separator: "\n")
        #expect(output.contains("digraph \"demo\" {"))
        #expect(output.contains("digraph \"offline\" {"))
        // Each box: the concrete type, the resolve, then the lifetime, the container and whose code ran.
        #expect(
            output.contains(
                "UsersWorker\\nresolveUsersWorker() as UsersWorkerType\\nfresh · AppDependency · from CoreDependency\""
            )
        )
        #expect(
            output.contains(
                "OfflineHTTPService\\nresolveHTTPService() as HTTPServiceType\\nfresh · OfflineDependency\""
            )
        )
    }

    @Test func temporaryDatabaseAndCacheAreGoneAfterTheRun() async throws {
        let lines = try await runDemo()
        let paths = lines.compactMap { line -> String? in
            guard line.hasSuffix(" (temporary)") else { return nil }
            let value = line.dropLast(" (temporary)".count).split(separator: " ", omittingEmptySubsequences: true)
            return value.last.map(String.init)
        }
        #expect(paths.count == 2)
        for path in paths {
            #expect(path.contains("DependencyKitDemo-"))
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }
}

/// Runs the demo with `arguments`, its container scoped to this test, and returns what it printed.
/// A failed run records what it printed, so the failing step shows in the test's output.
private func runDemo(_ arguments: String...) async throws -> [String] {
    let lines = NIOLockedValueBox([String]())
    let transcript = Transcript { text in
        lines.withLockedValue { $0 += text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
    }
    do {
        try await DemoCommand.parse(arguments).run(transcript: transcript, installation: .scoped)
    } catch {
        let printed = lines.withLockedValue { $0 }
        Issue.record("The demo failed:\n\(printed.joined(separator: "\n"))")
        throw error
    }
    return lines.withLockedValue { $0 }
}

/// `line` without its indentation, and with runs of spaces (the transcript's alignment) as one.
private func collapsingSpaces(_ line: String) -> String {
    line.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
}
