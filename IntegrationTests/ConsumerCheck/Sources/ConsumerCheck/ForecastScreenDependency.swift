import DependencyKit
import ForecastKit

// The app's container: ForecastKit's (a library in another module, see ForecastKit/), plus a
// main-actor resolve and an async one. This module's default isolation is MainActor, so the
// container says `nonisolated`: its resolves must stay callable from any thread, exactly like the
// CoreForecastDependency methods they sit beside.

// snippet: concurrency-app-protocol
nonisolated protocol ForecastScreenDependencies: ForecastDependency {
    @MainActor func resolveForecastScreenModel() -> ForecastScreenModel
    func resolveHeadline() async -> String
}
// end-snippet

// snippet: concurrency-app-subclass
// `@unchecked Sendable`: Swift makes every subclass of a container restate it. It is sound
// because this class stores only `let`s of Sendable values (state lives in shared instances).
class ForecastScreenDependency: CoreForecastDependency, ForecastScreenDependencies, @unchecked Sendable {
    override func resolveThermometer() -> any Thermometer {
        live { BalconyThermometer() }
    }

    @MainActor func resolveForecastScreenModel() -> ForecastScreenModel {
        fresh { ForecastScreenModel() }
    }

    func resolveHeadline() async -> String {
        await fresh {
            let celsius = await resolveThermometer().celsius()
            return "\(Int(celsius)) °C outside"
        }
    }
}
// end-snippet

// snippet: concurrency-shared-and-factory
nonisolated extension ForecastScreenDependency {
    /// A shared instance, from a nonisolated container in a main-actor module.
    func resolveRefreshCounter() -> RefreshCounter {
        shared { RefreshCounter() }
    }

    /// A factory for a main-actor module; the resolve is main-actor isolated like the module.
    @MainActor func resolveCityScreenFactory() -> CityScreen.Factory {
        fresh { .init(dependency: .init(forecaster: self.resolveForecaster())) }
    }
}
// end-snippet

/// The app's container with a frosty balcony: no sensor is read.
///
/// `@unchecked Sendable`: Swift makes every subclass of a container restate it. It is sound
/// because this class stores only `let`s of Sendable values (state lives in shared instances).
final class FrostScreenDependency: ForecastScreenDependency, @unchecked Sendable {
    override func resolveThermometer() -> any Thermometer { fresh { FixedThermometer(reading: -3) } }
}

/// The app's container on a mild day: no sensor is read.
///
/// `@unchecked Sendable`: Swift makes every subclass of a container restate it. It is sound
/// because this class stores only `let`s of Sendable values (state lives in shared instances).
final class MildScreenDependency: ForecastScreenDependency, @unchecked Sendable {
    override func resolveThermometer() -> any Thermometer { fresh { FixedThermometer(reading: 18) } }
}

nonisolated protocol HasForecastScreenDependencies {}

nonisolated extension HasForecastScreenDependencies {
    var dependencies: any ForecastScreenDependencies {
        forecastInjector.dependencies(as: (any ForecastScreenDependencies).self)
    }
}
