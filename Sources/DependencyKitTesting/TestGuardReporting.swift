internal import DependencyKit
internal import Foundation
package import Testing

/// Where the test guard's findings are recorded, and how.
///
/// A finding made in a guarded test's own tasks is an error on that test (the engine hands it to
/// the test's context). A finding that no test context carries is recorded here:
///
/// - In a test's own task, with no guard there (a test without `.dependencies(...)`): escaped work
///   is dropped — such a test reads the global container on purpose — and a global install, or a
///   `dependencies(as:)` of a type the global container is not, is an error on that test, at its
///   source location.
/// - Where no test runs at all (a detached task, a dispatch queue, an OS thread): nothing tells
///   which test the work belongs to, so it must not fail someone else's test. It is a warning,
///   recorded once per finding per process; `DEPENDENCYKIT_TEST_GUARD=strict` in the environment
///   makes it an error.
package enum TestGuardReporting {
    /// What becomes of a finding that no test context carries.
    package enum Outcome: Equatable, Sendable {
        /// Not recorded.
        case dropped
        /// Recorded on the test running in the current task.
        case failsCurrentTest
        /// Recorded on no test, with this severity.
        case unattributed(Issue.Severity)
    }

    /// One recorded finding, for DependencyKitTesting's own tests: its message, its severity, and the test
    /// it was recorded on, if any.
    package typealias Record = (message: String, severity: Issue.Severity, testName: String?)

    private struct State {
        var recorded: Set<String> = []
        var log: [Record] = []
    }

    private static let state = Locked(State())

    /// Whether findings that no test can be blamed for fail the run; read once.
    private static let isStrict = ProcessInfo.processInfo.environment["DEPENDENCYKIT_TEST_GUARD"] == "strict"

    /// Installs the engine's handler once per process.
    package static func install() {
        TestGuard.setUnattributedHandler { record($0) }
    }

    /// Decides what becomes of a finding of `kind` that no test context carries.
    /// - Parameters:
    ///   - kind: What the guard found.
    ///   - testIsRunningHere: Whether the current task belongs to a test (`Test.current`).
    ///   - strict: Whether unattributable findings are errors.
    package static func outcome(of kind: TestGuard.Finding.Kind, testIsRunningHere: Bool, strict: Bool) -> Outcome {
        switch (kind, testIsRunningHere) {
        case (.escapedWork, true): .dropped
        // A test's own task without a guard read a container it does not have: in production it would stop.
        case (.escapedConversion, true), (.globalInstall, true): .failsCurrentTest
        case (_, false): .unattributed(strict ? .error : .warning)
        }
    }

    /// Records a finding that no test context carries, once per test, or once per process when no
    /// test can be blamed.
    static func record(_ finding: TestGuard.Finding) {
        let test = Test.current
        switch outcome(of: finding.kind, testIsRunningHere: test != nil, strict: isStrict) {
        case .dropped:
            return
        case .failsCurrentTest:
            guard let test, isFirst(finding.key, in: test) else { return }
            record(finding.message(), severity: .error, in: test)
        case .unattributed(let severity):
            guard isFirst(finding.key, in: nil) else { return }
            record(finding.message() + "\n" + note(for: finding.kind, severity: severity), severity: severity, in: nil)
        }
    }

    /// The line that ends a finding no test can be blamed for.
    package static func note(for kind: TestGuard.Finding.Kind, severity: Issue.Severity) -> String {
        let unblamable = "no test can be blamed for work that ran outside every test's task"
        var note =
            severity == .warning
            ? "Recorded as a warning, once: \(unblamable). Set DEPENDENCYKIT_TEST_GUARD=strict to make it an error."
            : "Recorded once, as an error because DEPENDENCYKIT_TEST_GUARD=strict: \(unblamable)."
        if kind == .globalInstall {
            note += " `.allowsGlobalInstalls` covers a test's own tasks, not the threads it starts."
        }
        return note
    }

    private static func isFirst(_ key: String, in test: Test?) -> Bool {
        let scoped = test.map { "\($0.id) \(key)" } ?? key
        return state.withLock { $0.recorded.insert(scoped).inserted }
    }

    /// Records an issue, on `test` at its source location when there is one.
    static func record(_ message: String, severity: Issue.Severity, in test: Test?) {
        state.withLock { $0.log.append((message, severity, test?.name)) }
        let location = test?.sourceLocation ?? #_sourceLocation
        Issue.record(Comment(rawValue: message), severity: severity, sourceLocation: location)
    }

    /// Every finding recorded so far whose message contains `text`.
    package static func recorded(containing text: String) -> [Record] {
        state.withLock { $0.log.filter { $0.message.contains(text) } }
    }
}
