import DependencyKit
import DependencyKitTesting
import Foundation
import Testing

// The DependencyKit side of the Swinject and Factory migration guides: one small app, a weather
// screen that greets the user and tells them the forecast read over the network.

// snippet: migration-container
protocol WeatherScreenDependency: InjectableContainer where Injector == WeatherScreenInjector {
    func resolveClock() -> any Clock
    func resolveNetworkClient() -> any NetworkClient
    func resolveForecastService() -> any ForecastService
    func resolveWeatherReporter() -> any WeatherReporter
}

class CoreWeatherScreenDependency: DependencyContainer, WeatherScreenDependency, @unchecked Sendable {
    func resolveClock() -> any Clock {
        live { SystemClock() }
    }

    func resolveNetworkClient() -> any NetworkClient {
        live { URLSessionNetworkClient(configuration: .default) }
    }

    func resolveForecastService() -> any ForecastService {
        fresh { NetworkForecastService(client: resolveNetworkClient()) }
    }

    func resolveWeatherReporter() -> any WeatherReporter {
        fresh {
            GreetingWeatherReporter(
                greeter: TimeOfDayGreeter(clock: resolveClock()),
                forecasts: resolveForecastService()
            )
        }
    }
}

enum WeatherScreenInjector: DependencyInjecting {
    static let storage = ContainerStorage<any WeatherScreenDependency> { CoreWeatherScreenDependency() }
}

protocol HasWeatherScreenDependencies {}

extension HasWeatherScreenDependencies {
    var dependencies: any WeatherScreenDependency { WeatherScreenInjector.dependencies }
}
// end-snippet

// snippet: migration-consumer
struct WeatherScreenModel: HasWeatherScreenDependencies {
    func load(for name: String) async throws -> String {
        try await dependencies.resolveWeatherReporter().report(for: name, in: "Lisbon")
    }
}
// end-snippet

// snippet: migration-test
final class TestWeatherScreenDependency: CoreWeatherScreenDependency, @unchecked Sendable {
    override func resolveClock() -> any Clock { fresh { FixedClock(fixedHour: 9) } }
    override func resolveNetworkClient() -> any NetworkClient { fresh { CannedNetworkClient() } }
}

@Test(.dependencies(TestWeatherScreenDependency()))
func weatherScreenShowsTheMorningReport() async throws {
    let report = try await WeatherScreenModel().load(for: "Ada")
    #expect(report == "Good morning, Ada! Mild in Lisbon, 21 °C.")
}
// end-snippet

@Suite struct MigrationTests {
    @Test func theProductionGraphTalksToTheConfiguredServer() throws {
        let client = try #require(CoreWeatherScreenDependency().resolveNetworkClient() as? URLSessionNetworkClient)
        #expect(client.configuration.baseURL.host == "weather.example.com")
    }

    @Test(.dependencies(OfflineWeatherScreenDependency()))
    func anOverrideReachesTheScreenModel() async {
        await #expect(throws: NetworkError.offline) {
            try await WeatherScreenModel().load(for: "Ada")
        }
    }
}

private final class OfflineWeatherScreenDependency: CoreWeatherScreenDependency, @unchecked Sendable {
    override func resolveClock() -> any Clock { fresh { FixedClock(fixedHour: 20) } }
    override func resolveNetworkClient() -> any NetworkClient { fresh { OfflineNetworkClient() } }
}
