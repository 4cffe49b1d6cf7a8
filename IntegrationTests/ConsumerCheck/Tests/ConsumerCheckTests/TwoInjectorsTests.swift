import DependencyKit
import DependencyKitTesting
import ForecastKit
import Testing

@testable import ConsumerCheck

// snippet: multi-module-two-injectors-test
struct FrostThermometer: Thermometer {
    func celsius() async -> Double { -3 }
}

final class FrostForecastDependency: CoreForecastDependency, @unchecked Sendable {
    override func resolveThermometer() -> any Thermometer { fresh { FrostThermometer() } }
}

// One trait per injector: each scopes its own container to this test.
@Test(.dependencies(EveningDependency()), .dependencies(FrostForecastDependency()))
func aScreenReadsBothInjectorsScopedToItsTest() async {
    #expect(WelcomeViewModel().title(for: "Ada") == "Good evening, Ada!")  // Getting Started's injector
    #expect(await ForecastViewModel().title() == "Cold")  // ForecastKit's injector
}
// end-snippet

@Test(.dependencies(AppForecastDependency()), .allowsLiveDependencies)
func theAppsOverrideOfTheLibrarysResolveReachesTheLibrarysForecaster() async {
    #expect(await ForecastViewModel().title() == "Cold")  // the balcony reads 8 °C
    #expect(await CoreForecastDependency().resolveForecaster().summary() == "Mild")
}

// snippet: multi-module-library-override
// The library's own class, made in another module, with one resolve replaced for this test.
@Test(.dependencies(CoreForecastDependency(), .override({ $0.resolveThermometer() }, with: FrostThermometer())))
func theLibrarysContainerTakesAOneLineOverride() async {
    #expect(await ForecastViewModel().title() == "Cold")  // the library's forecaster reads -3 °C
}
// end-snippet
