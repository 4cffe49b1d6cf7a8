import DependencyKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The domain the engine's articles teach with: Getting Started's greetings app (`Clock`,
// `Greeter`, in GettingStartedSnippets.swift), grown into a morning weather report read from a
// forecast server. The articles show the container; the types below are what it builds.

/// Where the forecast server is, and how long a request may take.
struct NetworkConfiguration: Sendable, Equatable {
    static let `default` = NetworkConfiguration(baseURL: URL(string: "https://weather.example.com")!)

    var baseURL: URL
    var timeout: TimeInterval = 30
}

/// Why a request failed.
enum NetworkError: Error, Equatable {
    case offline
    case status(Int)
    case malformedResponse(String)
}

/// The only type that reaches the network.
protocol NetworkClient: Sendable {
    func get(_ path: String) async throws(NetworkError) -> Data
}

struct URLSessionNetworkClient: NetworkClient {
    let configuration: NetworkConfiguration

    func get(_ path: String) async throws(NetworkError) -> Data {
        var request = URLRequest(url: configuration.baseURL.appendingPathComponent(path))
        request.timeoutInterval = configuration.timeout
        let data: Data
        let response: URLResponse
        do { (data, response) = try await URLSession.shared.data(for: request) } catch { throw .offline }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else { throw .status(status) }
        return data
    }
}

struct Forecast: Sendable, Equatable, Decodable {
    let city: String
    let celsius: Double

    var summary: String { celsius < 10 ? "Cold" : "Mild" }
}

/// Reads forecasts from the forecast server.
protocol ForecastService: Sendable {
    func forecast(for city: String) async throws(NetworkError) -> Forecast
}

struct NetworkForecastService: ForecastService {
    let client: any NetworkClient

    func forecast(for city: String) async throws(NetworkError) -> Forecast {
        let data = try await client.get("/forecast/\(city)")
        do { return try JSONDecoder().decode(Forecast.self, from: data) } catch {
            throw .malformedResponse("forecast for \(city)")
        }
    }
}

/// Greets someone and tells them the weather: "Good morning, Ada! Mild in Lisbon, 21 °C."
protocol WeatherReporter: Sendable {
    func report(for name: String, in city: String) async throws(NetworkError) -> String
}

struct GreetingWeatherReporter: WeatherReporter {
    let greeter: any Greeter
    let forecasts: any ForecastService

    func report(for name: String, in city: String) async throws(NetworkError) -> String {
        let forecast = try await forecasts.forecast(for: city)
        return "\(greeter.greeting(for: name)) \(forecast.summary) in \(city), \(Int(forecast.celsius)) °C."
    }
}

// snippet: weather-container
protocol WeatherDependency: DependencyContainer {
    func resolveClock() -> any Clock
    func resolveGreeter() -> any Greeter
    func resolveNetworkConfiguration() -> NetworkConfiguration
    func resolveNetworkClient() -> any NetworkClient
    func resolveForecastService() -> any ForecastService
    func resolveWeatherReporter() -> any WeatherReporter
}

// The construction logic, once.
extension WeatherDependency {
    func makeGreeter() -> any Greeter { TimeOfDayGreeter(clock: resolveClock()) }
    func makeNetworkConfiguration() -> NetworkConfiguration { .default }
    func makeNetworkClient() -> any NetworkClient {
        URLSessionNetworkClient(configuration: resolveNetworkConfiguration())
    }
    func makeForecastService() -> any ForecastService { NetworkForecastService(client: resolveNetworkClient()) }
    func makeWeatherReporter() -> any WeatherReporter {
        GreetingWeatherReporter(greeter: resolveGreeter(), forecasts: resolveForecastService())
    }
}

// Defaults for test doubles only, so that the class below must implement every resolve.
extension WeatherDependency where Self: PartialContainer {
    func resolveClock() -> any Clock { live { SystemClock() } }
    func resolveGreeter() -> any Greeter { fresh { makeGreeter() } }
    func resolveNetworkConfiguration() -> NetworkConfiguration { fresh { makeNetworkConfiguration() } }
    func resolveNetworkClient() -> any NetworkClient { live { makeNetworkClient() } }
    func resolveForecastService() -> any ForecastService { fresh { makeForecastService() } }
    func resolveWeatherReporter() -> any WeatherReporter { fresh { makeWeatherReporter() } }
}

class CoreWeatherDependency: DependencyContainer, WeatherDependency, @unchecked Sendable {
    func resolveClock() -> any Clock { live { SystemClock() } }
    func resolveGreeter() -> any Greeter { fresh { makeGreeter() } }
    func resolveNetworkConfiguration() -> NetworkConfiguration { fresh { makeNetworkConfiguration() } }
    func resolveNetworkClient() -> any NetworkClient { live { makeNetworkClient() } }
    func resolveForecastService() -> any ForecastService { fresh { makeForecastService() } }
    func resolveWeatherReporter() -> any WeatherReporter { fresh { makeWeatherReporter() } }
}

let weatherInjector = Injector<any WeatherDependency> { CoreWeatherDependency() }

protocol HasWeatherDependencies {}

extension HasWeatherDependencies {
    var dependencies: any WeatherDependency { weatherInjector.dependencies }
    static var dependencies: any WeatherDependency { weatherInjector.dependencies }
}
// end-snippet
