import DependencyKit
import DependencyKitTesting
import Testing

// The samples of TheHasDependenciesPattern.md, over the weather container of NeutralDomain.swift.

// snippet: pattern-consumer
struct MorningReportViewModel: HasWeatherDependencies {
    lazy var reporter = dependencies.resolveWeatherReporter()

    mutating func report(for name: String) async throws -> String {
        try await reporter.report(for: name, in: "Lisbon")
    }
}
// end-snippet

// snippet: pattern-static
enum WelcomeBanner: HasWeatherDependencies {
    static func text(for name: String) -> String {
        dependencies.resolveGreeter().greeting(for: name)
    }
}
// end-snippet

// snippet: pattern-init
final class ForecastScreen: HasWeatherDependencies {
    let reporter: any WeatherReporter
    let clock: any Clock

    init() {
        // Not `dependencies.…`: the instance property needs `self`, which is not ready yet.
        reporter = Self.dependencies.resolveWeatherReporter()  // the `Has…` protocol's static property
        clock = weatherInjector.dependencies.resolveClock()  // or the injector itself
    }
}
// end-snippet

@Suite struct HasDependenciesPatternTests {
    @Test(.dependencies(CannedNetworkDependency(), .override({ $0.resolveClock() }, with: FixedClock(fixedHour: 20))))
    func anInitReadsTheContainerInEffectThroughTheStaticPropertyOrTheInjector() async throws {
        let screen = ForecastScreen()
        #expect(screen.clock.hour() == 20)
        #expect(
            try await screen.reporter.report(for: "Ada", in: "Lisbon") == "Good evening, Ada! Mild in Lisbon, 21 °C.")
    }

    @Test(.dependencies(CannedNetworkDependency()))
    func aLazyReporterComesFromTheContainerInEffect() async throws {
        var model = MorningReportViewModel()
        #expect(try await model.report(for: "Ada") == "Good morning, Ada! Mild in Lisbon, 21 °C.")
    }

    @Test(.dependencies(EveningWeatherDependency()))
    func staticMembersReadTheContainerToo() {
        #expect(WelcomeBanner.text(for: "Ada") == "Good evening, Ada!")
    }
}

private final class EveningWeatherDependency: CoreWeatherDependency, @unchecked Sendable {
    override func resolveClock() -> any Clock { fresh { FixedClock(fixedHour: 20) } }
}

// snippet: pattern-inject

struct EveningReportViewModel {
    @Inject(weatherInjector, { $0.resolveWeatherReporter() }) var reporter

    func report(for name: String) async throws -> String {  // not `mutating`
        try await reporter.report(for: name, in: "Lisbon")
    }
}

final class ForecastController {
    @Inject(weatherInjector, { $0.resolveForecastService() }) var forecasts
}

@MainActor final class GreetingScreen {
    @Inject(weatherInjector, { $0.resolveGreeter() }) var greeter

    func title(for name: String) -> String { greeter.greeting(for: name) }
}
// end-snippet

@Suite(.dependencies(TestDependency()))
struct InjectSnippetTests {
    @Test func aStructClassAndMainActorTypeReadTheTestsContainer() async throws {
        let model = EveningReportViewModel()
        #expect(try await model.report(for: "Ada") == "Good morning, Ada! Mild in Lisbon, 21 °C.")
        #expect(try await ForecastController().forecasts.forecast(for: "Oslo").celsius == -3)
        #expect(await GreetingScreen().title(for: "Ada") == "Good morning, Ada!")
    }
}
