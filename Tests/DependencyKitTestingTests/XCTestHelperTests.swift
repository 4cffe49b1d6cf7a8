#if canImport(XCTest)
    import DependencyKit
    import DependencyKitTesting
    import XCTest

    protocol XCTestDependency: InjectableContainer where Injector == XCTestInjector {
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

    enum XCTestInjector: DependencyInjecting {
        static let storage = ContainerStorage<any XCTestDependency> { XCTestCore(name: "default") }
    }

    final class SetUpScopingTests: XCTestCase {
        override func setUp() {
            super.setUp()
            useDependencies(XCTestCore(name: "set-up"))
        }

        func testSetUpInstallsTheContainerForTheTest() {
            XCTAssertEqual(XCTestInjector.dependencies.resolveName(), "set-up")
        }

        func testTeardownRestoresThePreviousContainer() {
            let previous = XCTestInjector.storage.global
            XCTAssertEqual(previous.resolveName(), "set-up")
            addTeardownBlock {
                // Teardown blocks run last-in first-out: the inner install is undone before this.
                XCTAssertEqual(XCTestInjector.dependencies.resolveName(), "set-up")
            }
            useDependencies(XCTestCore(name: "inner"))
            XCTAssertEqual(XCTestInjector.dependencies.resolveName(), "inner")
        }
    }

    final class InvokeTestScopingTests: XCTestCase {
        override func invokeTest() {
            withDependencies(XCTestCore(name: "invoke")) { super.invokeTest() }
        }

        func testSyncTestRunsInsideTheScope() {
            XCTAssertEqual(XCTestInjector.dependencies.resolveName(), "invoke")
        }

        func testAsyncTestRunsInsideTheScope() async {
            await Task.yield()
            XCTAssertEqual(XCTestInjector.dependencies.resolveName(), "invoke")
        }

        func testGlobalIsUntouched() {
            XCTAssertNotEqual(XCTestInjector.storage.global.resolveName(), "invoke")
        }
    }
#endif
