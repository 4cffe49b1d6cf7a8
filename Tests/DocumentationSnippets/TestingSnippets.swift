import DependencyKit
import DependencyKitTesting
import Dispatch
import Foundation
import Testing
import XCTest

// The samples of WritingTests.md, over the weather container of NeutralDomain.swift.

// snippet: testing-test-dependency
class TestDependency: CoreWeatherDependency, @unchecked Sendable {
    let network = CannedNetworkClient()

    override func resolveNetworkClient() -> any NetworkClient { fresh { network } }
    override func resolveClock() -> any Clock { fresh { FixedClock(fixedHour: 9) } }
}
// end-snippet

// snippet: testing-suite-trait
@Suite(.dependencies(TestDependency()))
struct WeatherReporterTests: HasWeatherDependencies {
    @Test func reportsTheMorningForecast() async throws {
        let report = try await dependencies.resolveWeatherReporter().report(for: "Ada", in: "Lisbon")
        #expect(report == "Good morning, Ada! Mild in Lisbon, 21 °C.")
    }

    @Test(.dependencies(OfflineWeatherDependency()))  // the innermost trait wins
    func reportsAnOfflineNetwork() async {
        await #expect(throws: NetworkError.offline) {
            try await dependencies.resolveWeatherReporter().report(for: "Ada", in: "Lisbon")
        }
    }
}
// end-snippet

@Suite struct ScopedBlockTests {
    @Test func aBlockSeesItsContainerAndNothingElseDoes() async throws {
        let before = WeatherInjector.dependencies
        // snippet: testing-with-dependencies
        let test = TestDependency()
        let report = try await withDependencies(test) {
            try await WeatherInjector.dependencies.resolveWeatherReporter().report(for: "Ada", in: "Oslo")
        }
        #expect(report == "Good morning, Ada! Cold in Oslo, -3 °C.")
        #expect(await test.network.paths == ["/forecast/Oslo"])
        // end-snippet
        #expect(WeatherInjector.dependencies === before)
    }
}

// snippet: testing-parallel
@Suite struct ParallelTests {
    final class NumberedDependency: CoreWeatherDependency, @unchecked Sendable {
        let number: Int

        init(number: Int) { self.number = number }
    }

    @Test(arguments: 0..<100)
    func everyCaseSeesOnlyItsOwnContainer(number: Int) async throws {
        try await withDependencies(NumberedDependency(number: number)) {
            await Task.yield()  // let other cases run in between
            let container = try #require(WeatherInjector.dependencies as? NumberedDependency)
            #expect(container.number == number)
        }
    }
}
// end-snippet

@Suite struct EscapingWorkTests {
    @Test(.dependencies(TestDependency()))
    func detachedWorkSeesTheTestContainerOnlyWhenItReentersTheContext() async {
        // snippet: testing-escaping-detached
        let context = DependencyContext.capture()
        let seesTestContainer = await Task.detached {
            context.run { WeatherInjector.dependencies is TestDependency }
        }.value
        // end-snippet
        let withoutContext = await Task.detached { WeatherInjector.dependencies is TestDependency }.value
        #expect(seesTestContainer)
        #expect(!withoutContext)
    }

    @Test(.dependencies(TestDependency()))
    func queueWorkSeesTheTestContainerThroughTheContext() async {
        // snippet: testing-escaping-queue
        let context = DependencyContext.capture()
        let seesTestContainer = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                context.run {
                    continuation.resume(returning: WeatherInjector.dependencies is TestDependency)
                }
            }
        }
        // end-snippet
        #expect(seesTestContainer)
    }
}

// snippet: testing-xctest-setup
final class WeatherReportXCTests: XCTestCase, HasWeatherDependencies {
    override func setUp() {
        super.setUp()
        useDependencies(TestDependency())  // restored when the test ends
    }

    func testReportsTheMorningForecast() async throws {
        let report = try await dependencies.resolveWeatherReporter().report(for: "Ada", in: "Lisbon")
        XCTAssertEqual(report, "Good morning, Ada! Mild in Lisbon, 21 °C.")
    }
}
// end-snippet

// snippet: testing-xctest-invoke
final class OfflineXCTests: XCTestCase, HasWeatherDependencies {
    override func invokeTest() {
        withDependencies(OfflineWeatherDependency()) { super.invokeTest() }
    }

    func testTheReporterIsOffline() async {
        do {
            _ = try await dependencies.resolveWeatherReporter().report(for: "Ada", in: "Lisbon")
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error, .offline)
        }
    }
}
// end-snippet

// snippet: testing-guard-opt-out
@Suite struct ProductionGraphTests {
    // Resolves the production network client on purpose: the test opts out of the live-leaf check.
    @Test(.dependencies(CoreWeatherDependency()), .allowsLiveDependencies)
    func theProductionClientTalksToTheWeatherServer() throws {
        let client = WeatherInjector.dependencies.resolveNetworkClient()
        let production = try #require(client as? URLSessionNetworkClient)
        #expect(production.configuration.baseURL.host == "weather.example.com")
    }
}
// end-snippet

// snippet: testing-guard-nested-scope
@Suite(.dependencies(TestDependency()))
struct NestedScopeTests {
    @Test func anInnerScopeWinsForItsBlock() async throws {
        let report = await withDependencies(OfflineTestDependency()) {
            try? await WeatherInjector.dependencies.resolveWeatherReporter().report(for: "Ada", in: "Lisbon")
        }
        #expect(report == nil)  // the inner container's offline network
        let outer = try await WeatherInjector.dependencies.resolveWeatherReporter().report(for: "Ada", in: "Lisbon")
        #expect(outer == "Good morning, Ada! Mild in Lisbon, 21 °C.")  // the trait's container again
    }
}

final class OfflineTestDependency: TestDependency, @unchecked Sendable {
    override func resolveNetworkClient() -> any NetworkClient { fresh { OfflineNetworkClient() } }
}
// end-snippet

/// The live-leaf message that WritingTests.md quotes, for a test container that forgot the network.
@Suite struct TestGuardMessageTests {
    final class TestDependency: CoreWeatherDependency, @unchecked Sendable {
        override func resolveClock() -> any Clock { fresh { FixedClock(fixedHour: 9) } }
    }

    @Test(.dependencies(TestDependency()))
    func aForgottenNetworkClientIsReportedInTheWordsTheArticleQuotes() {
        withKnownIssue {
            _ = WeatherInjector.dependencies.resolveForecastService()
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.hasPrefix(
                """
                resolveNetworkClient() -> NetworkClient reaches the outside world (network, disk, clock or \
                randomness), and this test's container TestDependency served it with the production code of \
                CoreWeatherDependency. Override it in the test's container:
                """
            )
        }
    }
}
