public import DependencyKit

// A library module that ships its own container for apps to subclass: Multi-Module Apps' recipe,
// compiled as a real module boundary (the app, ConsumerCheck, is another module with default
// MainActor isolation). This module has no default isolation, like most libraries.

// snippet: multi-module-library-domain
/// Reads the temperature outside: a sensor, the network — the outside world.
public protocol Thermometer: Sendable {
    func celsius() async -> Double
}

public struct SensorThermometer: Thermometer {
    public init() {}
    public func celsius() async -> Double { 21 }
}

/// Turns the temperature into words.
public protocol Forecaster: Sendable {
    func summary() async -> String
}

public struct ThermometerForecaster: Forecaster {
    public let thermometer: any Thermometer

    public init(_ thermometer: any Thermometer) { self.thermometer = thermometer }

    public func summary() async -> String {
        await thermometer.celsius() < 10 ? "Cold" : "Mild"
    }
}
// end-snippet

// snippet: multi-module-library-container
/// ForecastKit's container: one resolve per dependency.
public protocol ForecastDependency: DependencyContainer {
    func resolveThermometer() -> any Thermometer
    func resolveForecaster() -> any Forecaster
}

/// The production container: `open`, with every resolve `open`, so apps can subclass it.
///
/// `@unchecked Sendable`: sound because this class stores only `let`s of Sendable values
/// (state lives in shared instances or behind a lock).
open class CoreForecastDependency: DependencyContainer, ForecastDependency, @unchecked Sendable {
    open func resolveThermometer() -> any Thermometer { live { SensorThermometer() } }
    open func resolveForecaster() -> any Forecaster { fresh { ThermometerForecaster(resolveThermometer()) } }
}

/// Holds the container in use.
public let forecastInjector = Injector<any ForecastDependency> { CoreForecastDependency() }

/// Adopt it to read the container as `dependencies`.
public protocol HasForecastDependencies {}
extension HasForecastDependencies { public var dependencies: any ForecastDependency { forecastInjector.dependencies } }
// end-snippet
