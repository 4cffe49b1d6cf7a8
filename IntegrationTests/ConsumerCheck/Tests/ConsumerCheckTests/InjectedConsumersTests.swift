import DependencyKit
import DependencyKitTesting
import Testing

@testable import ConsumerCheck

@Suite struct InjectedConsumersTests {
    @Test(
        .dependencies(
            CoreGreetingDependency(),
            .override({ $0.resolveGreeter() }, with: TimeOfDayGreeter(clock: FixedClock(fixedHour: 22)))
        )
    )
    func injectedPropertiesReadTheTestsContainerWithItsOverride() {
        #expect(NightBannerModel().title(for: "Ada") == "Good evening, Ada!")
        #expect(NightBannerController().greeter.greeting(for: "Ada") == "Good evening, Ada!")
    }
}
