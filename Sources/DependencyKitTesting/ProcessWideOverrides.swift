#if canImport(XCTest)
    internal import DependencyKit

    /// Overrides installed for the whole process: what XCTest's `useDependencies(_:_:…)` does with its
    /// overrides, since XCTest runs one test at a time. A task's own overrides come first.
    struct ProcessWideOverrides: Sendable {
        private let previous: OverrideSet?
        private let entries: [OverrideSet.Entry]

        /// Records `overrides` of `container` (reporting malformed ones to the test context in effect)
        /// and installs them for the whole process.
        static func install<C>(_ overrides: [DependencyContainer.Override<C>], for container: C) -> Self {
            let (set, entries) = OverrideSet.recording(overrides, for: container)
            return ProcessWideOverrides(previous: swap(set), entries: entries)
        }

        /// Puts back the process-wide overrides this installation replaced.
        /// - Returns: A message for each override nothing resolved (see `OverrideSet.unusedMessages(of:)`).
        func restore() -> [String] {
            _ = Self.swap(previous)
            return OverrideSet.unusedMessages(of: entries)
        }

        /// Installs `set` as the process-wide overrides and returns the ones it replaces.
        private static func swap(_ set: OverrideSet?) -> OverrideSet? {
            Interception.processWide.withLock { installed in
                defer { installed.overrides = set }
                return installed.overrides as? OverrideSet
            }
        }
    }
#endif
