#if canImport(XCTest)
    public import DependencyKit
    public import XCTest

    extension XCTestCase {
        /// Puts `container` in effect for the whole process for the rest of this test, guards the test,
        /// and puts back what was in effect when the test ends.
        ///
        /// Call it from `setUp()` (or the test itself) in XCTest suites. Every injector whose container
        /// type `container` is serves it — to the test, to work the test started on other threads and in
        /// detached tasks — as a global container would, without touching any injector's global. XCTest
        /// runs the tests of one process one at a time, and `swift test --parallel` and Xcode's parallel
        /// testing run them in separate processes, so a process-wide container is safe there.
        ///
        /// Until the test ends, a live leaf (`live {}`) that production code serves — the container
        /// did not override it — fails the test with `XCTFail` at the line that called this method,
        /// naming the resolve, the container in effect and the override to write, once per resolve.
        /// Pass `allowingLiveDependencies: true` for an end-to-end test that means to go live.
        ///
        /// Work the test leaves running reads what the process has after the test: a resolve it makes
        /// before the next test begins is a warning at the line that called this method, saying that it
        /// ran after this test ended (not that this test started it), once per resolve; once the next
        /// test begins, it reads that test's container and
        /// overrides, unreported. A `Task {}` the test starts inherits nothing of the container, which
        /// is the process's, not the task's.
        ///
        /// Overrides replace resolves of the container for the test, with the spelling of the
        /// Swift Testing trait (see ``DependencyKit/DependencyContainer/Override``):
        ///
        /// ```swift
        /// override func setUp() {
        ///     super.setUp()
        ///     useDependencies(CoreWeatherDependency(), .override({ $0.resolveClock() }, with: FixedClock(fixedHour: 9)))
        /// }
        /// ```
        ///
        /// - Parameters:
        ///   - container: The container the rest of the test runs with.
        ///   - overrides: Replace resolves of the container until the test ends, in order.
        ///   - allowingLiveDependencies: Whether production code may serve live leaves.
        ///   - file: Where the guard's failures are reported; leave the default.
        ///   - line: Where the guard's failures are reported; leave the default.
        public func useDependencies<Container: DependencyContainer>(
            _ container: Container,
            _ overrides: DependencyContainer.Override<Container>...,
            allowingLiveDependencies: Bool = false,
            file: StaticString = #filePath,
            line: UInt = #line
        ) {
            addTeardownBlock(
                XCTestGuard.use(
                    container, overrides, allowingLiveDependencies: allowingLiveDependencies, test: name,
                    file: file, line: line))
        }
    }

    package enum XCTestGuard {
        /// What XCTest has instead of a warning issue: a line on the standard error stream, in the
        /// compiler's `file:line: warning:` form, which Xcode and CI logs show as a warning. Also collected
        /// for tests of this helper.
        package static func warn(_ message: String, file: StaticString, line: UInt) {
            warnings.withLock { $0.append(message) }
            FileHandle.standardError.write(Data("\(file):\(line): warning: \(message)\n".utf8))
        }

        /// What ``XCTest/XCTestCase/useDependencies(_:_:allowingLiveDependencies:file:line:)`` does for
        /// the test named `test`: puts `container` and `overrides` in effect for the process and guards
        /// the test. Returns what ends it, for the test's teardown: unused overrides are warnings, what
        /// was in effect before is put back, and, when this was the test's outermost call, an
        /// ``EndedTestWatch`` reports the work that resolves until the next test begins.
        package static func use<Container: DependencyContainer>(
            _ container: Container,
            _ overrides: [DependencyContainer.Override<Container>],
            allowingLiveDependencies: Bool,
            test: String,
            file: StaticString,
            line: UInt
        ) -> () -> Void {
            TestBoundaries.registered
            let endScope = ScopeFrame.bindProcessWide(container)
            // A context that fails the running test with the guard's message, at the user's line, in XCTest's
            // words; a watch (``EndedTestWatch``) warns instead, of what resolves after the test.
            let warning: @Sendable (String) -> Void = { warn($0, file: file, line: line) }
            let guarded = { (watch: Bool) -> GuardedTest in
                GuardedTest(
                    container: container, testScopes: nil,
                    exemptions: allowingLiveDependencies ? .liveDependencies : [],
                    spelling: .xcTest, testName: test, isEndedWatch: watch, warn: warning,
                    report: { watch ? warning($0) : XCTFail($0, file: file, line: line) })
            }
            let context = guarded(false)
            // The test's context in the process's slot, in place of a watch of the test before, so that it
            // takes a malformed override's problem; a task's own overrides come first, then these.
            let before = Interception.updateProcessWide { bound in
                defer { bound.test = context }
                return bound
            }
            let (overrideSet, entries) = OverrideSet.recording(overrides, for: container)
            Interception.updateProcessWide { $0.overrides = overrideSet }
            let outer = (before.test as? GuardedTest).flatMap { $0.isEndedWatch ? nil : $0 }
            return {
                for message in OverrideSet.unusedMessages(of: entries) { warn(message, file: file, line: line) }
                // The outermost call leaves a watch of the work that resolves until the next test begins.
                let next = outer ?? guarded(true)
                Interception.updateProcessWide { ($0.test, $0.overrides) = (next, before.overrides) }
                endScope()
            }
        }

        /// The warnings ``warn(_:file:line:)`` gave, oldest first.
        package static let warnings = Locked<[String]>([])
    }
#endif
