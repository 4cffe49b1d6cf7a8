#if canImport(XCTest)
    internal import DependencyKit
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
    package enum EndedTestWatch {
        /// Ends the watch in effect, if any: the next test case begins, or a test's `useDependencies` does.
        package static func end() {
            guard (Interception.processWide.test as? GuardedTest)?.isEndedWatch == true else { return }
            Interception.updateProcessWide { bound in
                if (bound.test as? GuardedTest)?.isEndedWatch == true { bound.test = TestGuard.escapedWork }
            }
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
