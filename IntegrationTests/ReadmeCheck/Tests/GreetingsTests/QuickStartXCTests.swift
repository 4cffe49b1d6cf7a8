// snippet: readme-quick-start-xctest
import DependencyKitTesting
import XCTest

@testable import Greetings

// 7. With XCTest: the container for the rest of the test, set in `setUp()`.
nonisolated final class WelcomeViewModelTests: XCTestCase {
    override func setUp() {
        super.setUp()
        useDependencies(MorningDependency())
    }

    func testGreetsInTheMorning() {
        XCTAssertEqual(WelcomeViewModel().title(for: "Ada"), "Good morning, Ada!")
    }
}
// end-snippet
