import DependencyKit
import ForecastKit

// The app side of Multi-Module Apps' library recipe: a subclass of another module's container,
// in a module whose default isolation is MainActor.

// snippet: multi-module-library-subclass
struct BalconyThermometer: Thermometer {
    func celsius() async -> Double { 8 }
}

nonisolated final class AppForecastDependency: CoreForecastDependency, @unchecked Sendable {
    override func resolveThermometer() -> any Thermometer { live { BalconyThermometer() } }
}

struct ForecastViewModel: HasForecastDependencies {
    func title() async -> String { await dependencies.resolveForecaster().summary() }
}
// end-snippet
