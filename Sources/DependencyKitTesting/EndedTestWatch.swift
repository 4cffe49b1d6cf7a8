#if canImport(XCTest)
    package import DependencyKit
    internal import Foundation
    internal import XCTest

    /// What an XCTest's `useDependencies` leaves in the process when the test ends, until the next
    /// test case begins: the test guard's process-wide context for that time.
    ///
    /// Between the end of one test and the start of the next, no test runs. A resolution made then by
    /// work that carries no test context of its own (a `Task.detached`, a `Task {}` started under
    /// `useDependencies`, a queue's closure, a thread) or by the test's `tearDown()` is reported as a
    /// warning at the ended test's `useDependencies` line, once per resolve. Such work carries no trace of
    /// the test that started it — the ended test, or an earlier one whose work is still running — so the
    /// warning says when it ran (after which test ended), and names no test as the one that left it running. Once the next test
    /// begins, such work cannot be told from that test's own detached work, and it is not reported.
    package final class EndedTestWatch: ResolutionInterceptor {
        /// The ended test's context, as a warning: counts the watch as a guarded test, which keeps every
        /// resolution on the diagnosed path where the watch sees it, and answers escaped
        /// `dependencies(as:)` reads with the ended test's container and a warning, instead of stopping
        /// the process.
        let context: GuardedTest
        /// The resolves already reported.
        private let reported = Locked<Set<String>>([])

        private init(context: GuardedTest) { self.context = context }

        /// Puts a watch for `test`, whose `useDependencies` just ended, in the process-wide test slot.
        static func begin(test: String, container: DependencyContainer, file: StaticString, line: UInt) {
            let warn: @Sendable (String) -> Void = { XCTestGuard.warn($0, file: file, line: line) }
            let context = GuardedTest(
                container: container, testScopes: nil, spelling: .xcTest, testName: test, warn: warn, report: warn)
            Interception.processWide.withLock { $0.test = EndedTestWatch(context: context) }
        }

        /// Ends the watch in effect, if any: the next test case begins, or a test's `useDependencies` does.
        package static func end() {
            Interception.processWide.withLock { bound in
                if bound.test is EndedTestWatch { bound.test = TestGuard.escapedWork }
            }
        }

        /// The watch in effect, if any.
        package static var current: EndedTestWatch? {
            Interception.processWide.withLock { $0.test as? EndedTestWatch }
        }

        package func inspect(_ resolution: Resolution, chain: [Diagnostics.Step]) {
            let step = resolution.step
            let key = "\(step.name) \(step.requestedType) \(step.container ?? "")"
            guard reported.withLock({ $0.insert(key).inserted }) else { return }
            context.warn(message(for: step))
        }

        package func containerForEscapedWork<Refined>(as type: Refined.Type, insteadOf global: Any) -> Refined? {
            context.containerForEscapedWork(as: type, insteadOf: global)
        }

        package func record(_ key: String, _ message: () -> String) -> Bool {
            context.record(key, message)
        }

        /// The warning for a resolution made after the test ended.
        func message(for step: Diagnostics.Step) -> String {
            let served = step.container.map { " It was served by \($0)." } ?? ""
            let test = context.testName ?? "the test"
            return """
                \(step.name) -> \(step.requestedType) was resolved after \(test) ended and before the next test \
                began, outside every test's `useDependencies`: by code run between tests (a tearDown()), or by \
                work that carries no trace of the test that started it (a Task.detached, a Task {} started \
                under `useDependencies`, a queue's closure, a thread), which may be any test before the next \
                one.\(served) Work still running when the next test begins reads that test's container \
                and overrides, and cannot be told from the next test's own work, so it is not reported then. \
                Await or cancel work before the test that starts it returns.
                """
        }
    }

    /// Ends the watch of the test that ended when the next test case begins, and when the tests end.
    final class TestBoundaries: NSObject, XCTestObservation {
        /// Registers the observer, once per process, on the main thread: XCTest on Apple platforms
        /// accepts observers only there, and a `setUp() async` may call `useDependencies` elsewhere. From
        /// another thread it is registered as soon as the main thread is free, which is before the next
        /// test case begins, the first moment it is needed.
        static let registered: Void = {
            let register: @MainActor @Sendable () -> Void = {
                XCTestObservationCenter.shared.addTestObserver(TestBoundaries())
            }
            if Thread.isMainThread {
                MainActor.assumeIsolated(register)
            } else {
                DispatchQueue.main.async(execute: register)
            }
        }()

        func testCaseWillStart(_ testCase: XCTestCase) { EndedTestWatch.end() }

        func testBundleDidFinish(_ testBundle: Bundle) { EndedTestWatch.end() }
    }
#endif
