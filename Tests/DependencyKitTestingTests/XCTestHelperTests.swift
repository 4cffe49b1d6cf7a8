#if canImport(XCTest)
    import DependencyKit
    import DependencyKitTesting
    import XCTest

    protocol XCTestDependency: DependencyContainer {
        func resolveName() -> String
    }

    extension XCTestDependency {
        func resolveName() -> String { "default" }
    }

    final class XCTestCore: DependencyContainer, XCTestDependency, @unchecked Sendable {
        let name: String
        init(name: String) {
            self.name = name
            super.init()
        }
        func resolveName() -> String { name }
    }

    let xcTestInjector = Injector<any XCTestDependency> { XCTestCore(name: "default") }

    extension XCTestCase {
        /// Runs `body` with `container` in effect, guarded, and ends it as the test's end would, reporting unused
        /// overrides: the block form of `useDependencies(_:_:allowingLiveDependencies:file:line:)` these tests
        /// use to check the guard within one test method.
        func withTestDependencies<Container: DependencyContainer>(
            _ container: Container,
            _ overrides: DependencyContainer.Override<Container>...,
            allowingLiveDependencies: Bool = false,
            file: StaticString = #filePath,
            line: UInt = #line,
            _ body: () -> Void
        ) {
            let end = XCTestGuard.use(
                container, overrides, allowingLiveDependencies: allowingLiveDependencies, test: name, file: file,
                line: line)
            body()
            end()
        }
    }

    /// What `useDependencies` does, with the guard's reports collected instead of failing the test.
    final class EscapedConversionTests: XCTestCase {
        /// Issue 46, item 1: a test on the app's refined container ends; the next test uses the library's
        /// container. Detached work the first left behind reads `dependencies(as:)` during the second: it
        /// gets the first test's container and a warning that blames neither test, not signal 4.
        func testDetachedWorkReadingARefinedContainerDuringTheNextTestOfAnotherKindGetsItNotAStop() async {
            let before = XCTestGuard.warnings.withLock { $0.count }
            let end1 = XCTestGuard.use(
                EndedAppCore(), [], allowingLiveDependencies: false, test: "XCTEscape.test1App", file: #filePath,
                line: #line)
            end1()
            EndedTestWatch.end()  // test 2 begins
            let end2 = XCTestGuard.use(
                EndedLibraryCore(), [], allowingLiveDependencies: false, test: "XCTEscape.test2Library",
                file: #filePath, line: #line)
            var greetings: [String] = []
            for _ in 0..<3 {
                greetings.append(
                    await Task.detached {
                        endedEscapeInjector.dependencies(as: (any EndedAppDependency).self).resolveGreeting()
                    }.value)
            }
            end2()
            EndedTestWatch.end()
            XCTAssertEqual(greetings, Array(repeating: "hello from the ended test", count: 3))
            let warnings = XCTestGuard.warnings.withLock { Array($0.dropFirst(before)) }
                .filter { $0.contains("`dependencies(as: EndedAppDependency.self)`") }
            XCTAssertEqual(warnings.count, 1)
            XCTAssertTrue(warnings.first?.contains("a EndedAppCore") == true, "\(warnings)")
        }

        func testDetachedWorkReadingTheAppsContainerIsAnIssueOnTheTestNotACrash() async {
            let reports = Locked<[String]>([])
            let context = GuardedTest(container: EscapeAppCore(), testScopes: nil, spelling: .xcTest) { message in
                reports.withLock { $0.append(message) }
            }
            // The context every thread's findings belong to, as XCTest's helper binds it; the one before after.
            let previous = Interception.updateProcessWide { bound in
                defer { bound.test = context }
                return bound.test
            }
            defer { Interception.updateProcessWide { $0.test = previous } }
            let greeting = await context.bind {
                await withDependencies(EscapeAppCore()) {
                    await Task.detached {
                        escapeInjector.dependencies(as: (any EscapeAppDependency).self).resolveGreeting()
                    }.value
                }
            }
            XCTAssertEqual(greeting, "hello from the app")
            let messages = reports.withLock { $0 }
            XCTAssertEqual(messages.count, 1)
            XCTAssertTrue(messages.first?.contains("`dependencies(as: EscapeAppDependency.self)`") == true)
        }
    }

    final class WrappedXCTestCore: DependencyContainer, XCTestDependency, @unchecked Sendable {
        func resolveName() -> String { fresh { "wrapped" } }
    }

    final class UnusedOverrideWarningTests: XCTestCase {
        func testAnOverrideTheTestNeverReachedIsAWarningAsInSwiftTesting() {
            let before = XCTestGuard.warnings.withLock { $0.count }
            withTestDependencies(
                WrappedXCTestCore(),
                .override({ $0.resolveName() }, with: "never read"),
                allowingLiveDependencies: true
            ) {}
            let warnings = XCTestGuard.warnings.withLock { Array($0.dropFirst(before)) }
            XCTAssertEqual(warnings.count, 1)
            XCTAssertTrue(
                warnings.first?.contains("overrides resolveName() of WrappedXCTestCore, but nothing resolved it")
                    == true)
        }
    }

    final class SetUpScopingTests: XCTestCase {
        override func setUp() {
            super.setUp()
            useDependencies(XCTestCore(name: "set-up"))
        }

        func testSetUpInstallsTheContainerForTheTest() {
            XCTAssertEqual(xcTestInjector.dependencies.resolveName(), "set-up")
        }

        func testTheGlobalContainerIsUntouched() {
            XCTAssertEqual(xcTestInjector.global.resolveName(), "default")
        }

        func testTeardownRestoresThePreviousContainer() {
            XCTAssertEqual(xcTestInjector.dependencies.resolveName(), "set-up")
            addTeardownBlock {
                // Teardown blocks run last-in first-out: the inner install is undone before this.
                XCTAssertEqual(xcTestInjector.dependencies.resolveName(), "set-up")
            }
            useDependencies(XCTestCore(name: "inner"))
            XCTAssertEqual(xcTestInjector.dependencies.resolveName(), "inner")
        }
    }

    final class InvokeTestScopingTests: XCTestCase {
        override func invokeTest() {
            withDependencies(XCTestCore(name: "invoke")) { super.invokeTest() }
        }

        func testSyncTestRunsInsideTheScope() {
            XCTAssertEqual(xcTestInjector.dependencies.resolveName(), "invoke")
        }

        func testAsyncTestRunsInsideTheScope() async {
            await Task.yield()
            XCTAssertEqual(xcTestInjector.dependencies.resolveName(), "invoke")
        }

        func testGlobalIsUntouched() {
            XCTAssertNotEqual(xcTestInjector.global.resolveName(), "invoke")
        }
    }

    protocol XCTestLeafDependency: DependencyContainer {
        func resolveLeaf() -> String
    }

    class CoreXCTestLeaf: DependencyContainer, XCTestLeafDependency, @unchecked Sendable {
        func resolveLeaf() -> String { live { "production" } }
    }

    /// Forgets to override the live leaf.
    final class LeakyXCTestLeaf: CoreXCTestLeaf, @unchecked Sendable {}

    final class FixedXCTestLeaf: CoreXCTestLeaf, @unchecked Sendable {
        override func resolveLeaf() -> String { fresh { "fixed" } }
    }

    let xcTestLeafInjector = Injector<any XCTestLeafDependency> { CoreXCTestLeaf() }

    /// The guard in XCTest: a live leaf served by production code fails the test, once per resolve.
    final class XCTestGuardTests: XCTestCase {
        /// The guard's failures, kept instead of failing this test, so that the test can check them.
        private let guardFailures = Locked<[String]>([])

        private static let expected = """
            resolveLeaf() -> String reaches the outside world (network, disk, clock or randomness) and was \
            served by the production code that LeakyXCTestLeaf inherits from CoreXCTestLeaf.
            Container in effect: LeakyXCTestLeaf, the container this test installed.
            Override it in this test, in one line, after the container in `useDependencies`:
                .override({ $0.resolveLeaf() }, with: …)
            Or, for every test that uses the container:
            Override it in LeakyXCTestLeaf:
                override func resolveLeaf() -> String { fresh { … } }
            (String is the type resolveLeaf()'s body built. If resolveLeaf() declares another type, write that one.)
            If this test means to go live (an end-to-end test), pass `allowingLiveDependencies: true` to \
            `useDependencies`.
            """

        /// Malformed overrides, kept instead of failing this test.
        private let overrideFailures = Locked<[String]>([])

        /// Where the guard's failures were reported: the file and line of each.
        private let guardLocations = Locked<[String]>([])

        #if canImport(Darwin)
            override func record(_ issue: XCTIssue) {
                if issue.compactDescription.contains("calls 2 resolves") {
                    overrideFailures.withLock { $0.append(issue.compactDescription) }
                } else if issue.compactDescription.contains("reaches the outside world") {
                    guardFailures.withLock { $0.append(issue.compactDescription) }
                    if let location = issue.sourceCodeContext.location {
                        guardLocations.withLock {
                            $0.append("\(location.fileURL.lastPathComponent):\(location.lineNumber)")
                        }
                    }
                } else {
                    super.record(issue)
                }
            }
        #else
            override func recordFailure(
                withDescription description: String,
                inFile filePath: String,
                atLine lineNumber: Int,
                expected: Bool
            ) {
                if description.contains("calls 2 resolves") {
                    overrideFailures.withLock { $0.append(description) }
                } else if description.contains("reaches the outside world") {
                    guardFailures.withLock { $0.append(description) }
                    let file = filePath.split(separator: "/").last.map(String.init) ?? filePath
                    guardLocations.withLock { $0.append("\(file):\(lineNumber)") }
                } else {
                    super.recordFailure(
                        withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
                }
            }
        #endif

        func testUseDependenciesFailsAForgottenLiveLeafOnce() {
            let line = #line + 1
            useDependencies(LeakyXCTestLeaf())
            XCTAssertEqual(xcTestLeafInjector.dependencies.resolveLeaf(), "production")
            XCTAssertEqual(xcTestLeafInjector.dependencies.resolveLeaf(), "production")
            XCTAssertEqual(guardFailures.withLock { $0.count }, 1)
            XCTAssertTrue(guardFailures.withLock { $0.first?.contains(Self.expected) } == true)
            // Reported at the test's own line, not in the library.
            XCTAssertEqual(guardLocations.withLock { $0 }, ["XCTestHelperTests.swift:\(line)"])
        }

        func testUseDependenciesTakesOverridesWithTheTraitsSpelling() {
            useDependencies(LeakyXCTestLeaf(), .override({ $0.resolveLeaf() }, with: "one line"))
            XCTAssertEqual(xcTestLeafInjector.dependencies.resolveLeaf(), "one line")
            XCTAssertEqual(guardFailures.withLock { $0 }, [])
        }

        func testAMalformedOverrideFailsTheTestNotTheProcess() {
            useDependencies(
                FixedXCTestLeaf(),
                .override(
                    {
                        _ = $0.resolveLeaf()
                        return $0.resolveLeaf()
                    }, with: "two"))
            XCTAssertEqual(xcTestLeafInjector.dependencies.resolveLeaf(), "fixed")  // left out
            XCTAssertEqual(overrideFailures.withLock { $0.count }, 1)
        }

        func testWithTestDependenciesTakesOverrides() {
            withTestDependencies(LeakyXCTestLeaf(), .override({ $0.resolveLeaf() }) { $0 + "?" }) {
                XCTAssertEqual(xcTestLeafInjector.dependencies.resolveLeaf(), "production?")
            }
            XCTAssertEqual(guardFailures.withLock { $0 }, [])
        }

        func testWithTestDependenciesFailsAForgottenLiveLeaf() {
            withTestDependencies(LeakyXCTestLeaf()) {
                XCTAssertEqual(xcTestLeafInjector.dependencies.resolveLeaf(), "production")
            }
            XCTAssertEqual(guardFailures.withLock { $0.count }, 1)
            XCTAssertTrue(guardFailures.withLock { $0.first?.contains(Self.expected) } == true)
            XCTAssertEqual(xcTestLeafInjector.dependencies.resolveLeaf(), "production")
            XCTAssertEqual(guardFailures.withLock { $0.count }, 1, "the guard outlived withTestDependencies")
        }

        func testAnOverriddenLeafIsQuiet() {
            useDependencies(FixedXCTestLeaf())
            XCTAssertEqual(xcTestLeafInjector.dependencies.resolveLeaf(), "fixed")
            XCTAssertEqual(guardFailures.withLock { $0 }, [])
        }

        func testAnEndToEndTestMayGoLive() {
            useDependencies(LeakyXCTestLeaf(), allowingLiveDependencies: true)
            XCTAssertEqual(xcTestLeafInjector.dependencies.resolveLeaf(), "production")
            XCTAssertEqual(guardFailures.withLock { $0 }, [])
        }
    }

    protocol LeakDependency: DependencyContainer {
        func resolveName() -> String
    }

    final class LeakProduction: DependencyContainer, LeakDependency, @unchecked Sendable {
        func resolveName() -> String { fresh { "production" } }
    }

    final class LeakDouble: DependencyContainer, LeakDependency, @unchecked Sendable {
        let name: String
        init(name: String) {
            self.name = name
            super.init()
        }
        func resolveName() -> String { fresh { name } }
    }

    let leakInjector = Injector<any LeakDependency> { LeakProduction() }

    /// Work a test leaves running: a task that resolves the name each time it is asked, until stopped.
    /// Each read is sequenced by the caller, who waits for its answer (never more than a minute, so a
    /// broken test fails instead of hanging).
    final class LeakedReader: Sendable {
        private let requests: AsyncStream<Void>.Continuation
        private let answered = DispatchSemaphore(value: 0)
        private let answer = Locked<String?>(nil)

        /// Starts the task: `Task.detached` when `detached`, else `Task {}`, which inherits the caller's scope.
        init(detached: Bool) {
            let (stream, requests) = AsyncStream<Void>.makeStream()
            self.requests = requests
            let (answer, answered) = (answer, answered)
            let work: @Sendable () async -> Void = {
                for await _ in stream {
                    answer.withLock { $0 = leakInjector.dependencies.resolveName() }
                    answered.signal()
                }
            }
            if detached { Task.detached(operation: work) } else { Task(operation: work) }
        }

        /// What the task resolves now.
        func read() -> String? {
            requests.yield()
            guard answered.wait(timeout: .now() + 60) == .success else { return "no answer" }
            return answer.withLock { $0 }
        }

        func stop() { requests.finish() }
    }

    /// Issue 39, item 6: work a test leaves running past its end, and the next test.
    final class LeakedWorkTests: XCTestCase {
        /// The warnings given since `count`, about the test named `test`.
        private func warnings(after count: Int, naming test: String) -> [String] {
            XCTestGuard.warnings.withLock { Array($0.dropFirst(count)) }.filter { $0.contains("after \(test) ended") }
        }

        private func leftRunningIsReportedOnTheTest(detached: Bool) {
            let leaked = LeakedReader(detached: detached)
            let before = XCTestGuard.warnings.withLock { $0.count }
            let test = name
            // Teardown blocks run last-in first-out: this one after the one `useDependencies` adds.
            addTeardownBlock {
                XCTAssertEqual(leaked.read(), "production", "what the process had before the test")
                XCTAssertEqual(leaked.read(), "production")
                let warnings = self.warnings(after: before, naming: test)
                XCTAssertEqual(warnings.count, 1, "once per resolve")
                XCTAssertTrue(
                    warnings.first?.contains("resolveName() -> String was resolved after \(test) ended") == true,
                    "\(warnings)")
                XCTAssertTrue(warnings.first?.contains("It was served by LeakProduction.") == true)
                leaked.stop()
            }
            useDependencies(LeakDouble(name: "A"), .override({ $0.resolveName() }, with: "A's override"))
            XCTAssertEqual(leaked.read(), "A's override")
        }

        func testADetachedTaskLeftRunningIsReportedAfterTheTestEnds() {
            leftRunningIsReportedOnTheTest(detached: true)
        }

        /// Under `useDependencies` the container is the process's, not the task's: a `Task {}` inherits
        /// nothing of it, and outlives the test like a detached task.
        func testATaskLeftRunningUnderUseDependenciesIsReportedAfterTheTestEnds() {
            leftRunningIsReportedOnTheTest(detached: false)
        }

        /// The finding's shape: test A leaves a task reading; test B installs an override. The reads
        /// between the tests are reported on A; once B begins, the task reads B's container and override,
        /// which nothing can tell from B's own detached work: the documented limit.
        func testALeakedTaskIsReportedOnItsTestUntilTheNextTestBegins() {
            let before = XCTestGuard.warnings.withLock { $0.count }
            let leaked = LeakedReader(detached: true)
            defer { leaked.stop() }
            let endA = XCTestGuard.use(
                LeakDouble(name: "A"), [], allowingLiveDependencies: false, test: "LeakingTests.testA",
                file: #filePath, line: #line)
            XCTAssertEqual(leaked.read(), "A")
            endA()
            XCTAssertEqual(leaked.read(), "production")
            XCTAssertEqual(leaked.read(), "production")
            XCTAssertEqual(warnings(after: before, naming: "LeakingTests.testA").count, 1)

            EndedTestWatch.end()  // what XCTest's start of the next test case does
            let endB = XCTestGuard.use(
                LeakDouble(name: "B"), [.override({ $0.resolveName() }, with: "B's override")],
                allowingLiveDependencies: false, test: "LeakingTests.testB", file: #filePath, line: #line)
            for _ in 0..<9 { XCTAssertEqual(leaked.read(), "B's override") }
            XCTAssertEqual(warnings(after: before, naming: "LeakingTests.testA").count, 1, "not reported in B")
            XCTAssertEqual(warnings(after: before, naming: "LeakingTests.testB"), [])
            endB()
            let watching = { (Interception.processWide.test as? GuardedTest)?.isEndedWatch == true }
            XCTAssertTrue(watching(), "B's work is watched until the next test begins")
            EndedTestWatch.end()
            XCTAssertFalse(watching())
        }

        /// A `Task {}` started inside a task-scoped container (`withDependencies`, as `invokeTest` can
        /// wrap a test) keeps that container and its overrides after the scope ends, and does not see the
        /// next test's process-wide overrides, which answer only the container they were given with.
        func testATaskStartedInAScopeKeepsItAndMissesTheNextTestsOverrides() {
            let scoped = LeakDouble(name: "A")
            let leaked = withDependencies(scoped, .override({ $0.resolveName() }, with: "A's override")) {
                LeakedReader(detached: false)
            }
            defer { leaked.stop() }
            XCTAssertEqual(leaked.read(), "A's override")
            let endB = XCTestGuard.use(
                LeakDouble(name: "B"), [.override({ $0.resolveName() }, with: "B's override")],
                allowingLiveDependencies: false, test: "LeakingTests.testB", file: #filePath, line: #line)
            XCTAssertEqual(leakInjector.dependencies.resolveName(), "B's override")
            XCTAssertEqual(leaked.read(), "A's override")
            endB()
        }

        /// Issue 46, item 2: test 1 leaves a task running; it resolves during test 2's tearDown(), and test 2
        /// left nothing running. The warning says when the work ran, after test 2 ended, and does not say
        /// that test 2 left it running: nothing tells which test started a detached task.
        func testAWarningAfterATestThatLeftNothingRunningDoesNotSayItLeftWorkRunning() {
            let before = XCTestGuard.warnings.withLock { $0.count }
            let leaked = LeakedReader(detached: true)
            defer { leaked.stop() }
            let end1 = XCTestGuard.use(
                LeakDouble(name: "1"), [], allowingLiveDependencies: false, test: "XCTEWLeak.test1Leaks",
                file: #filePath, line: #line)
            XCTAssertEqual(leaked.read(), "1")
            end1()
            EndedTestWatch.end()  // test 2 begins
            let end2 = XCTestGuard.use(
                LeakDouble(name: "2"), [], allowingLiveDependencies: false, test: "XCTEWLeak.test2Quiet",
                file: #filePath, line: #line)
            end2()  // test 2 ends, having started nothing; its tearDown() runs now
            XCTAssertEqual(leaked.read(), "production")
            EndedTestWatch.end()
            let warnings = warnings(after: before, naming: "XCTEWLeak.test2Quiet")
            XCTAssertEqual(warnings.count, 1)
            XCTAssertTrue(warnings.first?.contains("was resolved after XCTEWLeak.test2Quiet ended") == true)
            XCTAssertFalse(warnings.first?.contains("left running") == true, "\(warnings)")
            XCTAssertFalse(warnings.first?.contains("the test left") == true, "\(warnings)")
        }

        /// Runs after the tests above (XCTest runs a class's tests in name order), whose last leaves a
        /// watch: the start of this test ended it.
        func testBTheNextTestBeginsWithNoWatch() {
            XCTAssertNotEqual((Interception.processWide.test as? GuardedTest)?.isEndedWatch, true)
        }
    }
    /// The instance a test's container builds, counting how many are freed.
    final class PerTestSession: Sendable {
        static let freed = Locked(0)
        deinit { Self.freed.withLock { $0 += 1 } }
    }

    final class PerTestSessionCore: DependencyContainer, XCTestDependency, @unchecked Sendable {
        func resolveSession() -> PerTestSession { shared { PerTestSession() } }
    }

    /// A test's container, and what it built, is freed once the test has ended: XCTest's helper used to keep
    /// every test's container, with its instances (sessions, files, connections), for the life of the process.
    final class EndedXCTestContainersAreFreedTests: XCTestCase {
        func testAThousandEndedTestsLeaveNoContainerBehind() {
            let before = PerTestSession.freed.withLock { $0 }
            for index in 0..<1_000 {
                let container = PerTestSessionCore()
                let end = XCTestGuard.use(
                    container, [], allowingLiveDependencies: true, test: "test \(index)", file: #filePath, line: #line)
                XCTAssertTrue((xcTestInjector.dependencies as? PerTestSessionCore) === container)
                _ = container.resolveSession()
                end()
            }
            // What is kept by design goes with the next tests: the watch over the last test's escaped work (until
            // the next test begins), the latest test container of its class (what escaped work reading
            // `dependencies(as:)` is given), and a frame a reader on another thread announced when it ended.
            for index in 0..<2 {
                XCTestGuard.use(
                    PerTestSessionCore(), [], allowingLiveDependencies: true, test: "next \(index)", file: #filePath,
                    line: #line)()
            }
            XCTAssertEqual(PerTestSession.freed.withLock { $0 } - before, 1_000)
        }

        /// Threads read the container while tests begin and end one after another: each read sees a test's container
        /// or the default, never a freed one (run under ThreadSanitizer and AddressSanitizer too), and every ended
        /// test's container is freed.
        func testReadsOnOtherThreadsWhileTwoThousandTestsEndSeeLiveContainersOnly() {
            let before = PerTestSession.freed.withLock { $0 }
            let stop = Locked(false)
            let reads = Locked(0)
            let readers = (0..<3).map { _ in
                let thread = Thread {
                    while !stop.withLock({ $0 }) {
                        let container = xcTestInjector.dependencies
                        precondition(container is PerTestSessionCore || container.resolveName() == "default")
                        reads.withLock { $0 += 1 }
                    }
                }
                thread.start()
                return thread
            }
            for index in 0..<2_000 {
                let container = PerTestSessionCore()
                let end = XCTestGuard.use(
                    container, [], allowingLiveDependencies: true, test: "test \(index)", file: #filePath, line: #line)
                _ = container.resolveSession()
                end()
            }
            stop.withLock { $0 = true }
            let deadline = Date().addingTimeInterval(30)
            while readers.contains(where: { !$0.isFinished }), Date() < deadline {
                Thread.sleep(forTimeInterval: 0.001)
            }
            XCTAssertFalse(readers.contains(where: { !$0.isFinished }), "a reader did not stop")
            for index in 0..<2 {
                XCTestGuard.use(
                    PerTestSessionCore(), [], allowingLiveDependencies: true, test: "next \(index)", file: #filePath,
                    line: #line)()
            }
            XCTAssertGreaterThan(reads.withLock { $0 }, 0)
            XCTAssertEqual(PerTestSession.freed.withLock { $0 } - before, 2_000)
        }
    }
#endif
