import DependencyKit
import DependencyKitTesting
import Testing

// The one-line overrides of WritingTests.md, over the weather container of NeutralDomain.swift.

/// Decorates the greeter in effect, for the relative override.
struct ShoutingGreeter: Greeter {
    let base: any Greeter

    func greeting(for name: String) -> String { base.greeting(for: name).uppercased() }
}

// snippet: testing-override-value
@Suite struct EveningReportTests: HasWeatherDependencies {
    @Test(.dependencies(TestDependency(), .override({ $0.resolveClock() }, with: FixedClock(fixedHour: 20))))
    func greetsInTheEvening() async throws {
        let report = try await dependencies.resolveWeatherReporter().report(for: "Ada", in: "Lisbon")
        #expect(report == "Good evening, Ada! Mild in Lisbon, 21 °C.")
    }

    @Test(
        .dependencies(
            CoreWeatherDependency(),
            .override({ $0.resolveClock() }, with: FixedClock(fixedHour: 9)),
            .override({ $0.resolveNetworkClient() }, with: OfflineNetworkClient())
        )
    )
    func reportsAnOfflineNetworkWithoutATestContainer() async {
        await #expect(throws: NetworkError.offline) {
            try await dependencies.resolveWeatherReporter().report(for: "Ada", in: "Lisbon")
        }
    }
}
// end-snippet

@Suite(.dependencies(TestDependency()))
struct RelativeOverrideTests {
    @Test func aBlockDecoratesTheGreeterInEffect() {
        // snippet: testing-override-relative
        let greeting = weatherInjector.withOverrides(.override({ $0.resolveGreeter() }) { ShoutingGreeter(base: $0) }) {
            weatherInjector.dependencies.resolveGreeter().greeting(for: "Ada")
        }
        #expect(greeting == "GOOD MORNING, ADA!")  // the test container's nine o'clock, shouted
        // end-snippet
        #expect(weatherInjector.dependencies.resolveGreeter().greeting(for: "Ada") == "Good morning, Ada!")
    }
}

// snippet: testing-per-request-values
/// One request's container: the request's own clock, and the app's long-lived instances.
final class RequestWeatherDependency: CoreWeatherDependency, @unchecked Sendable {
    let app: any WeatherDependency
    let requestClock: any Clock

    init(app: any WeatherDependency, clock: any Clock) {
        self.app = app
        self.requestClock = clock
    }

    override func resolveClock() -> any Clock { fresh { requestClock } }
    // The app's client, with its connections, serves every request.
    override func resolveNetworkClient() -> any NetworkClient { app.resolveNetworkClient() }
}

func greeting(for name: String, at clock: any Clock) -> String {
    withDependencies(RequestWeatherDependency(app: weatherInjector.dependencies, clock: clock)) {
        weatherInjector.dependencies.resolveGreeter().greeting(for: name)
    }
}
// end-snippet

@Suite struct PerRequestValueTests {
    @Test func eachRequestSeesItsOwnClockAndTheAppsClient() {
        let morning = greeting(for: "Ada", at: FixedClock(fixedHour: 9))
        let evening = greeting(for: "Ada", at: FixedClock(fixedHour: 20))
        #expect(morning == "Good morning, Ada!")
        #expect(evening == "Good evening, Ada!")
    }
}
