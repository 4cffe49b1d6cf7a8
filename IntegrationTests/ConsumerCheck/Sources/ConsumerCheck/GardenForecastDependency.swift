import ForecastKit

// The smallest app container under default MainActor isolation: a subclass of another module's
// container. Without `nonisolated`, the override would be main-actor isolated and the compiler
// would reject it: "main actor-isolated instance method 'resolveThermometer()' has different
// actor isolation from nonisolated overridden declaration".

/// The thermometer in the garden.
nonisolated struct GardenThermometer: Thermometer {
    func celsius() async -> Double { 12 }
}

// snippet: concurrency-minimal-subclass
// `@unchecked Sendable`: Swift makes every subclass of a container restate it. It is sound
// because this class stores only `let`s of Sendable values (state lives in shared instances).
final class GardenForecastDependency: CoreForecastDependency, @unchecked Sendable {
    override func resolveThermometer() -> any Thermometer {
        live { GardenThermometer() }
    }
}
// end-snippet
