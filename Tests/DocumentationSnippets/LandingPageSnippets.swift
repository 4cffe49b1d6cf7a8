import DependencyKit
import DependencyKitTesting
import Testing

// snippet: landing-page
final class OfflineWeatherDependency: CoreWeatherDependency, @unchecked Sendable {
    override func resolveNetworkClient() -> any NetworkClient {
        fresh { OfflineNetworkClient() }
    }
    override func resolveClock() -> any Clock {
        fresh { FixedClock(fixedHour: 9) }
    }
}

struct WeatherViewModel: HasWeatherDependencies {
    // A GreetingWeatherReporter over a NetworkForecastService over OfflineNetworkClient:
    lazy var reporter = dependencies.resolveWeatherReporter()
}
// end-snippet

@Suite struct LandingPageTests {
    @Test(.dependencies(OfflineWeatherDependency()))
    func overridingTheNetworkClientReachesTheWeatherReporter() async {
        var model = WeatherViewModel()
        await #expect(throws: NetworkError.offline) {
            try await model.reporter.report(for: "Ada", in: "Lisbon")
        }
    }
}
