import DependencyKit
import Foundation

/// Prints the demo's steps as a short, aligned story. Never given a password or token.
struct Transcript: Sendable {
    private static let labelWidth = 16
    private let write: @Sendable (String) -> Void

    /// A transcript that hands each line to `write`; standard output by default.
    init(write: @escaping @Sendable (String) -> Void = { print($0) }) {
        self.write = write
    }

    func line(_ text: String) { write(text) }

    func title(_ text: String) {
        write(text)
        write(String(repeating: "─", count: text.count))
    }

    func detail(_ label: String, _ value: String) {
        write("  " + label.padding(toLength: 10, withPad: " ", startingAt: 0) + value)
    }

    func blank() { write("") }

    func step(_ number: Int, _ label: String, _ outcome: String, mark: String = "✓") {
        let head = "\(number). \(label)".padding(toLength: Self.labelWidth + 3, withPad: " ", startingAt: 0)
        write(head + mark + " " + outcome)
    }

    func more(_ outcome: String, mark: String = "✓") {
        write(String(repeating: " ", count: Self.labelWidth + 3) + mark + " " + outcome)
    }

    func failure(_ label: String, _ reason: String) {
        write("✗ \(label) failed: \(reason)")
    }

    func note(_ text: String) {
        write("  note: \(text)")
    }

    /// Which resolves the traced container overrides and which it inherits, one per line:
    ///
    /// ```text
    /// Container: AppDependency, a CoreDependency subclass
    ///   overridden in AppDependency
    ///     resolveHTTPConfiguration()     → HTTPConfiguration
    ///   inherited from CoreDependency
    ///     resolveUsersWorker()           → UsersWorker
    /// ```
    func container(_ graph: Diagnostics.ResolutionGraph, heading: String) {
        write(heading)
        let groups =
            [("overridden in \(graph.containerName ?? "the container")", graph.overridden)]
            + graph.inherited.map { ("inherited from \($0.from)", $0.resolves) }
        let width = groups.flatMap(\.1).map(\.name.count).max() ?? 0
        for (label, resolves) in groups where !resolves.isEmpty {
            write("  " + label)
            for resolve in resolves {
                write(
                    "    " + resolve.name.padding(toLength: width, withPad: " ", startingAt: 0) + " → " + resolve.type)
            }
        }
    }

    /// `UsersWorker → UsersNetworkStore → OfflineHTTPService (OfflineDependency's override)`: the
    /// concrete types along a path, and whose override the last one is.
    static func cascade(_ path: [Diagnostics.ResolutionGraph.Node]) -> String {
        let types = path.map { $0.resolvedType ?? "(no value)" }.joined(separator: " → ")
        guard let last = path.last, last.isImplementedByContainer, let container = last.container else { return types }
        return types + " (\(container)'s override)"
    }
}
