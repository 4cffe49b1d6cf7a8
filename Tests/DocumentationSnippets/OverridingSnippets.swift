import DependencyKit
import DependencyKitTesting
import Foundation
import Testing

// The samples of OverridingAndSubclassing.md, over the weather container of NeutralDomain.swift.

// snippet: overriding-subclass
final class StagingDependency: CoreWeatherDependency, @unchecked Sendable {
    override func resolveNetworkConfiguration() -> NetworkConfiguration {
        fresh { NetworkConfiguration(baseURL: URL(string: "https://staging.weather.example.com")!) }
    }
}
// end-snippet

// snippet: overriding-super
final class ImpatientDependency: CoreWeatherDependency, @unchecked Sendable {
    override func resolveNetworkConfiguration() -> NetworkConfiguration {
        fresh {
            var configuration = super.resolveNetworkConfiguration()
            configuration.timeout = 5
            return configuration
        }
    }
}
// end-snippet

// snippet: overriding-direct-conformance
final class CannedNetworkDependency: DependencyContainer, WeatherDependency, PartialContainer, @unchecked Sendable {
    let network = CannedNetworkClient()

    func resolveNetworkClient() -> any NetworkClient { fresh { network } }
    func resolveClock() -> any Clock { fresh { FixedClock(fixedHour: 9) } }
}
// end-snippet

// snippet: overriding-default-builder
final class ShortTimeoutDependency: DependencyContainer, WeatherDependency, PartialContainer, @unchecked Sendable {
    func resolveNetworkConfiguration() -> NetworkConfiguration {
        fresh {
            var configuration = makeNetworkConfiguration()
            configuration.timeout = 1
            return configuration
        }
    }
}
// end-snippet

@Suite struct OverridingTests {
    @Test(.dependencies(StagingDependency()), .allowsLiveDependencies)
    func overridingTheConfigurationReachesTheNetworkClient() throws {
        let client = try #require(weatherInjector.dependencies.resolveNetworkClient() as? URLSessionNetworkClient)
        #expect(client.configuration.baseURL.host == "staging.weather.example.com")
    }

    @Test func callingSuperDecoratesTheDefault() {
        let configuration = ImpatientDependency().resolveNetworkConfiguration()
        #expect(configuration.timeout == 5)
        #expect(configuration.baseURL == NetworkConfiguration.default.baseURL)
    }

    @Test func aDirectConformanceImplementsOnlyWhatTheTestNeeds() async throws {
        let container = CannedNetworkDependency()
        let report = try await withDependencies(container) {
            try await weatherInjector.dependencies.resolveWeatherReporter().report(for: "Ada", in: "Lisbon")
        }
        #expect(report == "Good morning, Ada! Mild in Lisbon, 21 °C.")
        #expect(await container.network.paths == ["/forecast/Lisbon"])
    }

    @Test func aDefaultBuilderCanBeDecorated() throws {
        let client = try #require(ShortTimeoutDependency().resolveNetworkClient() as? URLSessionNetworkClient)
        #expect(client.configuration.timeout == 1)
    }

    @Test func overridesAreTracedAsTheSubclasssOwnAndTheRestAsInherited() throws {
        let (_, graph) = Diagnostics.trace { StagingDependency().resolveWeatherReporter() }
        let configuration = try #require(graph.nodes.first { $0.name == "resolveNetworkConfiguration()" })
        let service = try #require(graph.nodes.first { $0.name == "resolveForecastService()" })
        #expect(configuration.isImplementedByContainer)
        #expect(service.implementer == "CoreWeatherDependency")
        #expect(service.container == "StagingDependency")
    }
}
