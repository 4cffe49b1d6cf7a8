#if canImport(XCTest)
    public import DependencyKit
    public import XCTest

    extension XCTestCase {
        /// Installs `container` as the global container for the rest of this test, guards the test,
        /// and restores the previous container when the test ends.
        ///
        /// Call it from `setUp()` (or the test itself) in XCTest suites. XCTest runs the tests
        /// of one process one at a time, and `swift test --parallel` and Xcode's parallel testing
        /// run them in separate processes, so swapping the global is safe there.
        ///
        /// Until the test ends, a live leaf (`live {}`) that production code serves — the container
        /// did not override it — fails the test with `XCTFail` at the line that called this method,
        /// naming the resolve, the container in effect and the override to write, once per resolve.
        /// Pass `allowingLiveDependencies: true` for an end-to-end test that means to go live.
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
        public func useDependencies<Container: InjectableContainer>(
            _ container: Container,
            _ overrides: DependencyContainer.Override<Container.Injector.Container>...,
            allowingLiveDependencies: Bool = false,
            file: StaticString = #filePath,
            line: UInt = #line
        ) {
            let storage = Container.Injector.storage
            let previous = storage.global
            storage.install(container.asInjectorContainer)
            TestGuard.watch(Container.Injector.storage)
            let context = XCTestGuard.context(
                for: container, allowingLiveDependencies: allowingLiveDependencies, file: file, line: line)
            let previousContext = context.bindToProcess()
            let installed = ProcessWideOverrides.install(overrides, for: container.asInjectorContainer)
            addTeardownBlock {
                for message in installed.restore() { XCTestGuard.warn(message, file: file, line: line) }
                TestContext.restoreProcessBinding(previousContext)
                storage.install(previous)
            }
        }

        /// Runs `body` — usually `super.invokeTest()` — with `container` scoped to it, guarded; the
        /// global container is not touched.
        ///
        /// ```swift
        /// override func invokeTest() {
        ///     withTestDependencies(OfflineWeatherDependency()) { super.invokeTest() }
        /// }
        /// ```
        ///
        /// A live leaf that production code serves fails the test, as with
        /// ``useDependencies(_:_:allowingLiveDependencies:file:line:)``, and overrides replace resolves of
        /// the container for the test.
        /// - Parameters:
        ///   - container: The container the test runs with.
        ///   - overrides: Replace resolves of the container for the test, in order.
        ///   - allowingLiveDependencies: Whether production code may serve live leaves.
        ///   - file: Where the guard's failures are reported; leave the default.
        ///   - line: Where the guard's failures are reported; leave the default.
        ///   - body: Runs the test.
        public func withTestDependencies<Container: InjectableContainer>(
            _ container: Container,
            _ overrides: DependencyContainer.Override<Container.Injector.Container>...,
            allowingLiveDependencies: Bool = false,
            file: StaticString = #filePath,
            line: UInt = #line,
            _ body: () -> Void
        ) {
            TestGuard.watch(Container.Injector.storage)
            let context = XCTestGuard.context(
                for: container, allowingLiveDependencies: allowingLiveDependencies, file: file, line: line)
            let previousContext = context.bindToProcess()
            defer { TestContext.restoreProcessBinding(previousContext) }
            context.bind {
                withDependencies(
                    container, overriding: overrides,
                    reportingUnused: { XCTestGuard.warn($0, file: file, line: line) }, operation: body)
            }
        }
    }

    /// The XCTest side of the test guard.
    package enum XCTestGuard {
        /// What XCTest has instead of a warning issue: a line on the standard error stream, in the
        /// compiler's `file:line: warning:` form, which Xcode and CI logs show as a warning. Also collected
        /// for tests of this helper.
        package static func warn(_ message: String, file: StaticString, line: UInt) {
            warnings.withLock { $0.append(message) }
            FileHandle.standardError.write(Data("\(file):\(line): warning: \(message)\n".utf8))
        }

        /// The warnings ``warn(_:file:line:)`` gave, oldest first.
        package static let warnings = Locked<[String]>([])

        /// A context that fails the running test with the guard's message, at the user's line, in
        /// XCTest's words.
        static func context(
            for container: DependencyContainer,
            allowingLiveDependencies: Bool,
            file: StaticString,
            line: UInt
        ) -> TestContext {
            TestContext(
                container: container,
                testScopes: nil,
                exemptions: allowingLiveDependencies ? .liveDependencies : [],
                spelling: .xcTest
            ) { message in
                XCTFail(message, file: file, line: line)
            }
        }
    }
#endif
