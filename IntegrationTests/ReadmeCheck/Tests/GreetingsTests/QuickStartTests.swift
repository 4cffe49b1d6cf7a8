// snippet: readme-quick-start-test
import DependencyKit
import DependencyKitTesting
import Testing

@testable import Greetings

// 4. Override one resolve: the greeter, built on it, follows.
struct FixedClock: Clock {
    let fixedHour: Int

    func hour() -> Int { fixedHour }
}

final class MorningDependency: CoreAppDependency, @unchecked Sendable {
    override func resolveClock() -> any Clock { fresh { FixedClock(fixedHour: 9) } }
}

// 5. Give each test its own container: safe when tests run in parallel.
@Test(.dependencies(MorningDependency()))
func greetsInTheMorning() {
    #expect(WelcomeViewModel().title(for: "Ada") == "Good morning, Ada!")
}

// 6. Or replace one resolve in one line, without a subclass.
@Test(.dependencies(CoreAppDependency(), .override({ $0.resolveClock() }, with: FixedClock(fixedHour: 9))))
func greetsInTheMorningWithOneOverride() {
    #expect(WelcomeViewModel().title(for: "Ada") == "Good morning, Ada!")
}
// end-snippet
