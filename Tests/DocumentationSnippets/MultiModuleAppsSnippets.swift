import DependencyKit
import DependencyKitTesting
import Foundation
import Testing

// The samples of MultiModuleApps.md. The weather container of NeutralDomain.swift stands in for
// the library, and this file for the app built on it.

// snippet: multi-module-analytics
protocol Analytics: Sendable {
    func track(_ event: String) async
}

struct NoAnalytics: Analytics {
    func track(_ event: String) async {}
}
// end-snippet

// snippet: multi-module-protocol
protocol WeatherAppDependencies: WeatherDependency {
    func resolveAnalytics() -> any Analytics
}

extension WeatherAppDependencies where Self: PartialContainer {
    func resolveAnalytics() -> any Analytics { fresh { NoAnalytics() } }
}
// end-snippet

// snippet: multi-module-class
class WeatherAppDependency: CoreWeatherDependency, WeatherAppDependencies, @unchecked Sendable {
    func resolveAnalytics() -> any Analytics { fresh { NoAnalytics() } }

    override func resolveNetworkConfiguration() -> NetworkConfiguration {
        fresh { NetworkConfiguration(baseURL: URL(string: "https://weather.myapp.example")!) }
    }
}
// end-snippet

// snippet: multi-module-has
protocol HasWeatherAppDependencies {}

extension HasWeatherAppDependencies {
    var dependencies: any WeatherAppDependencies {
        weatherInjector.dependencies(as: (any WeatherAppDependencies).self)
    }
}
// end-snippet

enum MultiModuleLaunch {
    // snippet: multi-module-launch
    static func applicationDidFinishLaunching() {
        weatherInjector.setDefault { WeatherAppDependency() }
    }
    // end-snippet
}

// snippet: multi-module-consumer
struct MorningScreenModel: HasWeatherAppDependencies {
    func load(for name: String) async throws -> String {
        let report = try await dependencies.resolveWeatherReporter().report(for: name, in: "Lisbon")
        await dependencies.resolveAnalytics().track("report-shown")
        return report
    }
}
// end-snippet

// snippet: multi-module-inject
struct ReportScreenModel {
    @Inject(weatherInjector, as: (any WeatherAppDependencies).self, { $0.resolveAnalytics() })
    var analytics
}
// end-snippet

// snippet: multi-module-test
actor RecordingAnalytics: Analytics {
    private(set) var events: [String] = []

    func track(_ event: String) async { events.append(event) }
}

final class TestWeatherAppDependency: WeatherAppDependency, @unchecked Sendable {
    let analytics = RecordingAnalytics()

    override func resolveAnalytics() -> any Analytics { fresh { analytics } }
    override func resolveNetworkClient() -> any NetworkClient { fresh { CannedNetworkClient() } }
    override func resolveClock() -> any Clock { fresh { FixedClock(fixedHour: 9) } }
}

@Test(.dependencies(TestWeatherAppDependency()))
func showingTheReportIsTracked() async throws {
    let report = try await MorningScreenModel().load(for: "Ada")
    #expect(report == "Good morning, Ada! Mild in Lisbon, 21 °C.")
    let container = try #require(weatherInjector.dependencies as? TestWeatherAppDependency)
    #expect(await container.analytics.events == ["report-shown"])
}
// end-snippet

@Test(.dependencies(TestWeatherAppDependency()))
func anInjectPropertyReachesTheAppsResolves() async throws {
    let container = try #require(weatherInjector.dependencies as? TestWeatherAppDependency)
    await ReportScreenModel().analytics.track("injected")
    #expect(await container.analytics.events == ["injected"])
}

// snippet: multi-module-override
@Test(
    .dependencies(
        TestWeatherAppDependency(),
        .override({ $0.resolveAnalytics() }, with: RecordingAnalytics())  // the app's own resolve
    )
)
func anAppResolveOverriddenInOneLine() async throws {
    let analytics = try #require(
        weatherInjector.dependencies(as: (any WeatherAppDependencies).self).resolveAnalytics() as? RecordingAnalytics)
    _ = try await MorningScreenModel().load(for: "Ada")
    #expect(await analytics.events == ["report-shown"])
}
// end-snippet

// snippet: multi-module-second-injector
protocol FeatureDependency: DependencyContainer {
    func resolveAnalytics() -> any Analytics
}

class CoreFeatureDependency: DependencyContainer, FeatureDependency, @unchecked Sendable {
    func resolveAnalytics() -> any Analytics { fresh { NoAnalytics() } }
}

let featureInjector = Injector<any FeatureDependency> { CoreFeatureDependency() }

protocol HasFeatureDependencies {}

extension HasFeatureDependencies {
    var featureDependencies: any FeatureDependency { featureInjector.dependencies }
}
// end-snippet

// snippet: multi-module-second-injector-test
struct CheckoutViewModel: HasWeatherAppDependencies, HasFeatureDependencies {
    func checkOut() async { await featureDependencies.resolveAnalytics().track("checked-out") }
}

final class RecordingFeatureDependency: CoreFeatureDependency, @unchecked Sendable {
    let analytics = RecordingAnalytics()

    override func resolveAnalytics() -> any Analytics { fresh { analytics } }
}

// One trait per injector; each container is scoped to this test alone.
@Test(.dependencies(TestWeatherAppDependency()), .dependencies(RecordingFeatureDependency()))
func checkingOutIsTrackedByTheFeaturesOwnAnalytics() async throws {
    await CheckoutViewModel().checkOut()
    let feature = try #require(featureInjector.dependencies as? RecordingFeatureDependency)
    let app = try #require(weatherInjector.dependencies as? TestWeatherAppDependency)
    #expect(await feature.analytics.events == ["checked-out"])
    #expect(await app.analytics.events == [])
}
// end-snippet

@Suite struct MultiModuleAppsTests {
    @Test(.dependencies(WeatherAppDependency()))
    func appTypesSeeLibraryAndAppResolvesThroughOneTypedContainer() {
        struct Probe: HasWeatherAppDependencies {}
        #expect(Probe().dependencies.resolveAnalytics() is NoAnalytics)
        #expect(Probe().dependencies.resolveNetworkConfiguration().baseURL.host == "weather.myapp.example")
    }

    @Test(.dependencies(WeatherAppDependency()))
    func libraryTypesSeeTheSameAppContainer() {
        struct LibraryProbe: HasWeatherDependencies {}
        #expect(LibraryProbe().dependencies is WeatherAppDependency)
    }

    @Test func aSecondInjectorIsIndependentOfTheLibrarys() {
        final class LoudFeatureDependency: DependencyContainer, FeatureDependency, @unchecked Sendable {
            func resolveAnalytics() -> any Analytics { fresh { RecordingAnalytics() } }
        }
        withDependencies(LoudFeatureDependency()) {
            #expect(featureInjector.dependencies.resolveAnalytics() is RecordingAnalytics)
            #expect(!(weatherInjector.dependencies is WeatherAppDependency))
        }
        #expect(featureInjector.dependencies.resolveAnalytics() is NoAnalytics)
    }
}
