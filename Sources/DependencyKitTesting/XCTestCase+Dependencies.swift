#if canImport(XCTest)
    public import DependencyKit
    public import XCTest

    extension XCTestCase {
        /// Installs `container` as the global container for the rest of this test and restores
        /// the previous one when the test ends.
        ///
        /// Call it from `setUp()` (or the test itself) in XCTest suites. XCTest runs the tests
        /// of one process one at a time, and `swift test --parallel` and Xcode's parallel testing
        /// run them in separate processes, so swapping the global is safe there. To leave the
        /// global untouched altogether, override `invokeTest()` instead:
        ///
        /// ```swift
        /// override func invokeTest() {
        ///     withDependencies(TestDependency()) { super.invokeTest() }
        /// }
        /// ```
        ///
        /// - Parameter container: The container the rest of the test runs with.
        public func useDependencies<Container: InjectableContainer>(_ container: Container) {
            let storage = Container.Injector.storage
            let previous = storage.global
            storage.install(container.asInjectorContainer)
            addTeardownBlock { storage.install(previous) }
        }
    }
#endif
