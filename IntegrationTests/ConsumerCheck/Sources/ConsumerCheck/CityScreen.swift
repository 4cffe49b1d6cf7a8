import DependencyKit
import ForecastKit

/// A main-actor screen made by a factory: in this module the conformance is main-actor
/// isolated without saying so (InferIsolatedConformances), and the factory can only create on
/// the main actor.
final class CityScreen: FactoryModule {
    struct Dependency: Sendable {
        let forecaster: any Forecaster
    }

    let forecaster: any Forecaster
    let city: String

    init(dependency: Dependency, payload: String) {
        forecaster = dependency.forecaster
        city = payload
    }
}

/// Counts forecast refreshes; one per container.
actor RefreshCounter {
    private(set) var count = 0

    func increment() { count += 1 }
}
