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
        /// did not override it — fails the test with `XCTFail`, naming the resolve, the container
        /// in effect and the override to write, once per resolve. Pass
        /// `allowingLiveDependencies: true` for an end-to-end test that means to go live.
        ///
        /// - Parameters:
        ///   - container: The container the rest of the test runs with.
        ///   - allowingLiveDependencies: Whether production code may serve live leaves.
        public func useDependencies<Container: InjectableContainer>(
            _ container: Container,
            allowingLiveDependencies: Bool = false
        ) {
            let storage = Container.Injector.storage
            let previous = storage.global
            storage.install(container.asInjectorContainer)
            let context = XCTestGuard.context(for: container, allowingLiveDependencies: allowingLiveDependencies)
            let previousContext = context.bindToProcess()
            addTeardownBlock {
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
        /// ``useDependencies(_:allowingLiveDependencies:)``.
        /// - Parameters:
        ///   - container: The container the test runs with.
        ///   - allowingLiveDependencies: Whether production code may serve live leaves.
        ///   - body: Runs the test.
        public func withTestDependencies<Container: InjectableContainer>(
            _ container: Container,
            allowingLiveDependencies: Bool = false,
            _ body: () -> Void
        ) {
            let context = XCTestGuard.context(for: container, allowingLiveDependencies: allowingLiveDependencies)
            let previousContext = context.bindToProcess()
            defer { TestContext.restoreProcessBinding(previousContext) }
            withDependencies(container) {
                TestContext.$current.withValue(context) { body() }
            }
        }
    }

    /// The XCTest side of the test guard.
    enum XCTestGuard {
        /// A context that fails the running test with the guard's message.
        static func context(for container: DependencyContainer, allowingLiveDependencies: Bool) -> TestContext {
            TestContext(
                container: container,
                testScopes: nil,
                exemptions: allowingLiveDependencies ? .liveDependencies : []
            ) { message in
                XCTFail(message)
            }
        }
    }
#endif
