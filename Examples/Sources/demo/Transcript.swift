import Foundation

/// Prints the demo's steps as a short, aligned story. Never given a password or token.
struct Transcript: Sendable {
    private static let labelWidth = 16

    func title(_ text: String) {
        print(text)
        print(String(repeating: "─", count: text.count))
    }

    func detail(_ label: String, _ value: String) {
        print("  " + label.padding(toLength: 10, withPad: " ", startingAt: 0) + value)
    }

    func blank() { print("") }

    func step(_ number: Int, _ label: String, _ outcome: String) {
        let head = "\(number). \(label)".padding(toLength: Self.labelWidth + 3, withPad: " ", startingAt: 0)
        print(head + "✓ " + outcome)
    }

    func more(_ outcome: String, mark: String = "✓") {
        print(String(repeating: " ", count: Self.labelWidth + 3) + mark + " " + outcome)
    }

    func failure(_ label: String, _ reason: String) {
        print("✗ \(label) failed: \(reason)")
    }

    func note(_ text: String) {
        print("  note: \(text)")
    }
}
