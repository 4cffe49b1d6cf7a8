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

    /// What `useDependencies` does, with the guard's reports collected instead of failing the test.
    final class EscapedConversionTests: XCTestCase {
        func testDetachedWorkReadingTheAppsContainerIsAnIssueOnTheTestNotACrash() async {
            let reports = Locked<[String]>([])
            let context = GuardedTest(container: EscapeAppCore(), testScopes: nil, spelling: .xcTest) { message in
                reports.withLock { $0.append(message) }
            }
            let previous = context.bindToProcess()
            defer { GuardedTest.restoreProcessBinding(previous) }
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
            (String is the type the body built. A body that is a single `return` statement builds its \
            expression's type instead of the declared one: if resolveLeaf() declares another type, drop that \
            `return`, and the signature above is the resolve's.)
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
#endif
