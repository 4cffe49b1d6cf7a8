import DependencyKit
import ForecastKit

// The app side of Multi-Module Apps' library recipe: a subclass of another module's container,
// in a module whose default isolation is MainActor.

// snippet: multi-module-library-subclass
struct BalconyThermometer: Thermometer {
    func celsius() async -> Double { 8 }
}

// `@unchecked Sendable`: Swift makes every subclass of a container restate it. It is sound
// because this class stores only `let`s of Sendable values (state lives in shared instances).
final class AppForecastDependency: CoreForecastDependency, @unchecked Sendable {
    override func resolveThermometer() -> any Thermometer { live { BalconyThermometer() } }
}

struct ForecastViewModel: HasForecastDependencies {
    func title() async -> String { await dependencies.resolveForecaster().summary() }
}
// end-snippet
