import Foundation
import Testing
import UsersAPI

/// Refused connections never stop the server accepting, so its listen queue drains however many
/// silent connections an attack holds, and a client at another address gets through.
@Suite struct ListenQueueTests {
    /// The issue's attack is 10,000 silent connections from 157 addresses against the default
    /// limits; the test holds 2,000 from 40 addresses against a server of 64 slots (16 spare
    /// sockets), which fills a listen queue of 1,024 just the same. Set
    /// `USERS_API_SILENT_CROWD=10000` to run the full attack against the default limits.
    static let crowd = Int(ProcessInfo.processInfo.environment["USERS_API_SILENT_CROWD"] ?? "") ?? 2_000

    @Test func clientAtAnotherAddressIsServedWhileThousandsOfSilentConnectionsAreHeld() async throws {
        let full = Self.crowd > 2_000
        let limits =
            full
            ? UsersServer.Limits(idleTimeout: .seconds(600))
            : UsersServer.Limits(
                idleTimeout: .seconds(600), maximumConnections: 64, maximumConnectionsPerAddress: 8,
                maximumPendingConnectionsPerAddress: 4)
        let perAddress = full ? 64 : 50
        let addresses = (Self.crowd + perAddress - 1) / perAddress
        try await withUsersServer(limits: limits) { server in
            let sources = (0..<addresses).map { "127.0.\(10 + $0 / 200).\(1 + $0 % 200)" }
            let crowd = try SilentCrowd(port: server.port, from: sources, perAddress: perAddress)
            defer { crowd.close() }
            // Held: every connection established, and all but those holding the slots turned away
            // by the server, so its listen queue is empty of them. Wait for that (at most 30 s):
            // while the queue stays full a newcomer's connect waits for the kernel to retry it,
            // 1, 3 and 7 s later.
            let total = addresses * perAddress
            let started = ContinuousClock.now
            for _ in 0..<300 where crowd.established < total || crowd.answered < total - limits.maximumConnections {
                try await Task.sleep(for: .milliseconds(100))
            }
            let held = ContinuousClock.now - started
            var results: [(reply: String, seconds: Double)] = []
            for _ in 0..<5 {
                do {
                    results.append(
                        try await ConnectionFairnessTests.timedRequest(port: server.port, from: "127.0.0.203"))
                } catch {
                    // The connect itself timed out (10 s): the queue never drained.
                    results.append(("connect failed: \(error)", 10))
                }
            }
            print(
                "silent crowd: \(Self.crowd) connections from \(addresses) addresses, \(crowd.established) established"
                    + " (\(crowd.answered) turned away, all within \(held));"
                    + " served in \(results.map { String(format: "%.3f s", $0.seconds) }.joined(separator: ", "))")
            ConnectionFairnessTests.expectServedPromptly(results)
        }
    }
}
