import DependencyKit
import DependencyKitTesting
import Testing

@testable import ConsumerCheck

// snippet: getting-started-test
@Suite struct WelcomeViewModelTests {
    @Test(.dependencies(EveningDependency()))
    func greetsInTheEvening() {
        #expect(WelcomeViewModel().title(for: "Ada") == "Good evening, Ada!")
    }

    @Test(.dependencies(CoreGreetingDependency(), .override({ $0.resolveClock() }, with: FixedClock(fixedHour: 9))))
    func greetsInTheMorningWithOneOverride() {
        #expect(WelcomeViewModel().title(for: "Ada") == "Good morning, Ada!")
    }

    @Test func greetsInTheMorningInsideAScope() {
        final class MorningDependency: CoreGreetingDependency, @unchecked Sendable {
            override func resolveClock() -> any Clock { fresh { FixedClock(fixedHour: 9) } }
        }
        withDependencies(MorningDependency()) {
            #expect(WelcomeViewModel().title(for: "Ada") == "Good morning, Ada!")
        }
    }
}
// end-snippet
