import DependencyKit
import DependencyKitTesting
import Foundation
import Testing

// The samples of Diagnostics.md.

// snippet: diagnostics-fresh
class VisibleDependency: CoreWeatherDependency, @unchecked Sendable {
    override func resolveWeatherReporter() -> any WeatherReporter {
        fresh { GreetingWeatherReporter(greeter: resolveGreeter(), forecasts: resolveForecastService()) }
    }
}
// end-snippet

enum DiagnosticsLaunch {
    static func checkCyclesInThisBuild() {
        // snippet: diagnostics-policy
        Diagnostics.checksCycles = true
        // end-snippet
    }
}

final class LoopWorker: Sendable {
    let service: LoopService
    init(service: LoopService) { self.service = service }
}

final class LoopService: Sendable {
    let store: LoopStore
    init(store: LoopStore) { self.store = store }
}

final class LoopStore: Sendable {
    let worker: LoopWorker
    init(worker: LoopWorker) { self.worker = worker }
}

/// Worker → service → store → worker.
final class BrokenDependency: DependencyContainer, @unchecked Sendable {
    func resolveWorker() -> LoopWorker { fresh { LoopWorker(service: resolveService()) } }
    func resolveService() -> LoopService { fresh { LoopService(store: resolveStore()) } }
    func resolveStore() -> LoopStore { fresh { LoopStore(worker: resolveWorker()) } }
}

@Suite struct DiagnosticsTests {
    // snippet: diagnostics-exit-test
    @Test func brokenGraphNamesItsCycle() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Diagnostics.checksCycles = true
            _ = BrokenDependency().resolveWorker()
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("Dependency cycle: LoopWorker → LoopService → LoopStore → LoopWorker"))
    }
    // end-snippet

    @Test func aTraceDrawsTheGraphAsTextDOTAndMermaid() throws {
        // snippet: diagnostics-trace
        let dependencies = CoreWeatherDependency()
        let (_, graph) = Diagnostics.trace {
            _ = dependencies.resolveWeatherReporter()
        }
        print(graph.renderText())
        // end-snippet
        // The rendered trace that Diagnostics.md shows, verbatim.
        #expect(
            graph.renderText() == """
                resolveWeatherReporter() → GreetingWeatherReporter as WeatherReporter [fresh, CoreWeatherDependency]
                ├─ resolveGreeter() → TimeOfDayGreeter as Greeter [fresh, CoreWeatherDependency]
                │  └─ resolveClock() → SystemClock as Clock [live, CoreWeatherDependency]
                └─ resolveForecastService() → NetworkForecastService as ForecastService [fresh, CoreWeatherDependency]
                   └─ resolveNetworkClient() → URLSessionNetworkClient as NetworkClient [live, CoreWeatherDependency]
                      └─ resolveNetworkConfiguration() → NetworkConfiguration [fresh, CoreWeatherDependency]
                """
        )

        let dotFile = FileManager.default.temporaryDirectory.appendingPathComponent("weather-\(UUID()).dot")
        defer { try? FileManager.default.removeItem(at: dotFile) }
        // snippet: diagnostics-dot
        try graph.renderDOT(name: "Weather").write(to: dotFile, atomically: true, encoding: .utf8)
        // dot -Tsvg weather.dot -o weather.svg
        // end-snippet
        #expect(try String(contentsOf: dotFile, encoding: .utf8).contains("digraph"))

        // snippet: diagnostics-mermaid
        print("```mermaid\n\(graph.renderMermaid())\n```")
        // end-snippet
    }

    @Test func aResolveBuiltInFreshIsNamedInTheTrace() {
        let (_, graph) = Diagnostics.trace { _ = VisibleDependency().resolveWeatherReporter() }
        #expect(graph.renderText().contains("[fresh, VisibleDependency]"))
    }
}
