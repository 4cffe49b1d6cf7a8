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
        let before = weatherInjector.dependencies
        // snippet: testing-with-dependencies
        let test = TestDependency()
        let report = try await withDependencies(test) {
            try await weatherInjector.dependencies.resolveWeatherReporter().report(for: "Ada", in: "Oslo")
        }
        #expect(report == "Good morning, Ada! Cold in Oslo, -3 °C.")
        #expect(await test.network.paths == ["/forecast/Oslo"])
        // end-snippet
        #expect(weatherInjector.dependencies === before)
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
            let container = try #require(weatherInjector.dependencies as? NumberedDependency)
            #expect(container.number == number)
        }
    }
}
// end-snippet

@Suite struct EscapingWorkTests {
    @Test(.dependencies(TestDependency()))
    func detachedWorkSeesTheTestContainerOnlyWhenItReentersTheContext() async {
        // snippet: testing-escaping-detached
        let context = DependencyContainer.Context.capture()
        let seesTestContainer = await Task.detached {
            context.run { weatherInjector.dependencies is TestDependency }
        }.value
        // end-snippet
        let withoutContext = await Task.detached { weatherInjector.dependencies is TestDependency }.value
        #expect(seesTestContainer)
        #expect(!withoutContext)
    }

    @Test(.dependencies(TestDependency()))
    func queueWorkSeesTheTestContainerThroughTheContext() async {
        // snippet: testing-escaping-queue
        let context = DependencyContainer.Context.capture()
        let seesTestContainer = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                context.run {
                    continuation.resume(returning: weatherInjector.dependencies is TestDependency)
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

// snippet: testing-xctest-override
final class EveningXCTests: XCTestCase, HasWeatherDependencies {
    override func setUp() {
        super.setUp()
        useDependencies(TestDependency(), .override({ $0.resolveClock() }, with: FixedClock(fixedHour: 20)))
    }

    func testReportsTheEveningForecast() async throws {
        let report = try await dependencies.resolveWeatherReporter().report(for: "Ada", in: "Lisbon")
        XCTAssertEqual(report, "Good evening, Ada! Mild in Lisbon, 21 °C.")
    }
}
// end-snippet

// snippet: testing-guard-opt-out
@Suite struct ProductionGraphTests {
    // Resolves the production network client on purpose: the test opts out of the live-leaf check.
    @Test(.dependencies(CoreWeatherDependency()), .allowsLiveDependencies)
    func theProductionClientTalksToTheWeatherServer() throws {
        let client = weatherInjector.dependencies.resolveNetworkClient()
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
            try? await weatherInjector.dependencies.resolveWeatherReporter().report(for: "Ada", in: "Lisbon")
        }
        #expect(report == nil)  // the inner container's offline network
        let outer = try await weatherInjector.dependencies.resolveWeatherReporter().report(for: "Ada", in: "Lisbon")
        #expect(outer == "Good morning, Ada! Mild in Lisbon, 21 °C.")  // the trait's container again
    }
}

final class OfflineTestDependency: TestDependency, @unchecked Sendable {
    override func resolveNetworkClient() -> any NetworkClient { fresh { OfflineNetworkClient() } }
}
// end-snippet

// snippet: testing-shared-live-leaf
class PooledWeatherDependency: CoreWeatherDependency, @unchecked Sendable {
    // One client per container, and still a live leaf: a test that forgets to override it is told.
    override func resolveNetworkClient() -> any NetworkClient { live { shared { makeNetworkClient() } } }
}
// end-snippet

@Suite struct SharedLiveLeafSnippetTests {
    final class ForgetfulDouble: PooledWeatherDependency, @unchecked Sendable {
        override func resolveClock() -> any Clock { fresh { FixedClock(fixedHour: 9) } }
    }

    @Test(.dependencies(ForgetfulDouble()))
    func aTestThatForgetsTheSharedClientIsTold() {
        withKnownIssue {
            _ = weatherInjector.dependencies.resolveNetworkClient()
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().hasPrefix(
                "resolveNetworkClient() -> any NetworkClient reaches the outside world")
        }
    }
}

// snippet: testing-assert-guard
/// Forgets the clock on purpose: the test checks that the guard tells.
final class ClocklessDependency: CoreWeatherDependency, @unchecked Sendable {
    override func resolveNetworkClient() -> any NetworkClient { fresh { CannedNetworkClient() } }
}

@Test(.dependencies(ClocklessDependency()))
func theGuardNamesTheForgottenClock() {
    var served: (any Clock)?
    withKnownIssue {
        served = weatherInjector.dependencies.resolveClock()
    } matching: { issue in
        issue.comments.contains { $0.rawValue.contains(".override({ $0.resolveClock() }, with: …)") }
    }
    #expect(served is SystemClock)  // the live code ran once; the guard reported it
}
// end-snippet

/// Every message of the test guard, in the words WritingTests.md quotes.
@Suite struct TestGuardMessageTests {
    final class TestDependency: CoreWeatherDependency, @unchecked Sendable {
        override func resolveClock() -> any Clock { fresh { FixedClock(fixedHour: 9) } }
    }

    final class ClockOnlyDouble: DependencyContainer, WeatherDependency, PartialContainer, @unchecked Sendable {
        func resolveClock() -> any Clock { fresh { FixedClock(fixedHour: 9) } }
    }

    final class CopiedDouble: CoreWeatherDependency, @unchecked Sendable {
        override func resolveClock() -> any Clock { fresh { FixedClock(fixedHour: 9) } }
        override func resolveNetworkClient() -> any NetworkClient { live { OfflineNetworkClient() } }
    }

    private static func text(of issue: Issue) -> String { issue.comments.map(\.rawValue).joined() }

    @Test(.dependencies(TestDependency()))
    func aForgottenNetworkClientIsReportedInTheWordsTheArticleQuotes() {
        withKnownIssue {
            _ = weatherInjector.dependencies.resolveForecastService()
        } matching: { issue in
            Self.text(of: issue) == """
                resolveNetworkClient() -> any NetworkClient reaches the outside world (network, disk, clock or \
                randomness) and was served by the production code that TestDependency inherits from \
                CoreWeatherDependency.
                Container in effect: TestDependency, the container this test installed.
                Override it in this test, in one line, in the trait (or `withDependencies`, `withOverrides`):
                    .override({ $0.resolveNetworkClient() }, with: …)
                Or, for every test that uses the container:
                Override it in TestDependency:
                    override func resolveNetworkClient() -> any NetworkClient { fresh { … } }
                If this test means to go live (an end-to-end test), add `.allowsLiveDependencies` to it or its suite.
                """
        }
    }

    @Test(.dependencies(ClockOnlyDouble()))
    func aPartialDoubleIsToldToImplementTheResolve() {
        withKnownIssue {
            _ = weatherInjector.dependencies.resolveForecastService()
        } matching: { issue in
            Self.text(of: issue) == """
                resolveNetworkClient() -> any NetworkClient reaches the outside world (network, disk, clock or \
                randomness) and was served by ClockOnlyDouble's `live {}` code: the protocol's default, or \
                ClockOnlyDouble's own resolve.
                Container in effect: ClockOnlyDouble, the container this test installed.
                Override it in this test, in one line, in the trait (or `withDependencies`, `withOverrides`):
                    .override({ $0.resolveNetworkClient() }, with: …)
                Or, for every test that uses the container:
                Implement it in ClockOnlyDouble, building the value with `fresh {}` (a double's resolves do not \
                reach the outside world):
                    func resolveNetworkClient() -> any NetworkClient { fresh { … } }
                If this test means to go live (an end-to-end test), add `.allowsLiveDependencies` to it or its suite.
                """
        }
    }

    @Test(.dependencies(CopiedDouble()))
    func aDoubleThatKeptLiveIsToldToSayFresh() {
        withKnownIssue {
            _ = weatherInjector.dependencies.resolveForecastService()
        } matching: { issue in
            Self.text(of: issue) == """
                resolveNetworkClient() -> any NetworkClient reaches the outside world (network, disk, clock or \
                randomness) and was served by CopiedDouble's own `live {}` code.
                Container in effect: CopiedDouble, the container this test installed.
                Override it in this test, in one line, in the trait (or `withDependencies`, `withOverrides`):
                    .override({ $0.resolveNetworkClient() }, with: …)
                Or, for every test that uses the container:
                If CopiedDouble is a test double, its resolve is production-shaped: build the value with \
                `fresh { … }` instead of `live { … }`. If it is a production container, give the test a double \
                that overrides it:
                    override func resolveNetworkClient() -> any NetworkClient { fresh { … } }
                If this test means to go live (an end-to-end test), add `.allowsLiveDependencies` to it or its suite.
                """
        }
    }

    @Test(.dependencies(TestDependency()))
    func theGlobalServingInsideATestIsNamed() {
        withKnownIssue {
            _ = weatherInjector.global.resolveGreeter()  // as if a library ignored the test's scope
        } matching: { issue in
            Self.text(of: issue) == """
                resolveClock() -> any Clock reaches the outside world (network, disk, clock or randomness) and \
                was served by the global container's `live {}` code.
                Container in effect: CoreWeatherDependency, the global container, not TestDependency, which this \
                test installed: code in this test read the global container instead of the test's scope.
                Code in this test bypassed its scope: inside the test, `dependencies` serves the test's container, \
                and a `DependencyContainer.Context` captured in the test carries it into escaping work. Find the code that \
                read the global container directly.
                If this test means to go live (an end-to-end test), add `.allowsLiveDependencies` to it or its suite.
                """
        }
    }

    @Test(.dependencies(TestDependency()))
    func aContainerFromAnInnerBlockIsNamed() {
        withKnownIssue {
            _ = withDependencies(CoreWeatherDependency()) { weatherInjector.dependencies.resolveForecastService() }
        } matching: { issue in
            Self.text(of: issue).contains(
                """
                Container in effect: CoreWeatherDependency, from a `withDependencies` scope inside this test (the \
                test installed TestDependency).
                """)
        }
    }

    @Test(.dependencies(TestDependency()))
    func escapedWorkIsAWarningWithTheFix() async {
        _ = await Task.detached { weatherInjector.dependencies.resolveNetworkConfiguration() }.value
        let records = TestGuardReporting.recorded(
            containing: "resolveNetworkConfiguration() -> NetworkConfiguration was")
        #expect(records.first?.severity == .warning)
        #expect(
            records.first?.message == """
                resolveNetworkConfiguration() -> NetworkConfiguration was served by the global container \
                (CoreWeatherDependency) to work that ran outside every test's scope (Task.detached, a DispatchQueue \
                closure, a thread, a callback stored for later) while tests scoped by `.dependencies(...)` were \
                running. Such work does not see its test's container. The resolution chain:
                  resolveNetworkConfiguration() -> NetworkConfiguration [fresh, CoreWeatherDependency]
                If the work belongs to a test, capture the test's scope before the work escapes and re-enter it: \
                `let context = DependencyContainer.Context.capture()`, then `context.run { … }` inside the escaping work. \
                Work that means to read the global container says so, and this warning goes: \
                `DependencyContainer.Context.global.run { … }` around it.
                Recorded as a warning, once: no test can be blamed for work that ran outside every test's task. \
                Set DEPENDENCYKIT_TEST_GUARD=strict to make it an error.
                """)
    }

    // snippet: testing-guard-global-on-purpose
    @Test(.dependencies(TestDependency()))
    func aDetachedTaskSeesTheGlobalContainer() async {
        let configuration = await Task.detached {
            DependencyContainer.Context.global.run { weatherInjector.dependencies.resolveNetworkConfiguration() }
        }.value
        #expect(configuration.baseURL.host == "weather.example.com")  // the global container, on purpose
    }
    // end-snippet

    @Test(.dependencies(TestDependency()))
    func aGlobalInstallFailsTheTestThatMadeIt() {
        let global = weatherInjector.global
        withKnownIssue {
            weatherInjector.dependencies = global  // the same container again: other tests see no change
        } matching: { issue in
            Self.text(of: issue).hasPrefix("Installed CoreWeatherDependency as the global container while ")
                && Self.text(of: issue).hasSuffix(
                    """
                    test(s) scoped to the same injector were running. Code that reads the global container (work \
                    that escaped a test's scope, tests without a container of their own) now sees \
                    CoreWeatherDependency, whichever test it belongs to. Give the test its own container instead: \
                    `@Test(.dependencies(CoreWeatherDependency(…)))`, or `withDependencies(CoreWeatherDependency(…)) \
                    { … }` around the code, with what its `init` takes in place of `…` (nothing if it takes nothing; \
                    the trait makes a new container for each test). A test that must swap the global (a test of the \
                    swap itself) can say so with `.allowsGlobalInstalls`.
                    """)
        }
    }

    // Each fix the messages above suggest, pasted as written with its `…` filled in: it compiles, and
    // the test it fixes runs quiet.

    /// "Override it in this test, in one line, in the trait": `.override({ $0.resolveNetworkClient() }, with: …)`.
    @Test(.dependencies(TestDependency(), .override({ $0.resolveNetworkClient() }, with: OfflineNetworkClient())))
    func theOneLineOverrideTheLiveLeafMessageSuggestsCompilesAndQuietsTheGuard() async {
        await #expect(throws: NetworkError.offline) {
            try await weatherInjector.dependencies.resolveNetworkClient().get("/forecast")
        }
    }

    /// "Override it in TestDependency": `override func resolveNetworkClient() -> any NetworkClient { fresh { … } }`.
    final class PastedSubclassFix: CoreWeatherDependency, @unchecked Sendable {
        override func resolveClock() -> any Clock { fresh { FixedClock(fixedHour: 9) } }
        override func resolveNetworkClient() -> any NetworkClient { fresh { OfflineNetworkClient() } }
    }

    @Test(.dependencies(PastedSubclassFix()))
    func theSubclassOverrideTheLiveLeafMessageSuggestsCompiles() async {
        await #expect(throws: NetworkError.offline) {
            try await weatherInjector.dependencies.resolveNetworkClient().get("/forecast")
        }
    }

    /// "Implement it in ClockOnlyDouble": `func resolveNetworkClient() -> any NetworkClient { fresh { … } }`.
    final class PastedPartialFix: DependencyContainer, WeatherDependency, PartialContainer, @unchecked Sendable {
        func resolveClock() -> any Clock { fresh { FixedClock(fixedHour: 9) } }
        func resolveNetworkClient() -> any NetworkClient { fresh { OfflineNetworkClient() } }
    }

    @Test(.dependencies(PastedPartialFix()))
    func theImplementationThePartialDoubleMessageSuggestsCompiles() async {
        await #expect(throws: NetworkError.offline) {
            try await weatherInjector.dependencies.resolveNetworkClient().get("/forecast")
        }
    }

    /// Escaped work: "`let context = DependencyContainer.Context.capture()`, then `context.run { … }`", and
    /// "`DependencyContainer.Context.global.run { … }` around it".
    @Test(.dependencies(TestDependency()))
    func theContextsTheEscapedWorkMessageSuggestsCompileAndCarryTheScope() async {
        let context = DependencyContainer.Context.capture()
        let scoped = await Task.detached {
            context.run { weatherInjector.dependencies is TestDependency }
        }.value
        let global = await Task.detached {
            DependencyContainer.Context.global.run { weatherInjector.dependencies is TestDependency }
        }.value
        #expect(scoped && !global)
    }

    /// A global install: "`@Test(.dependencies(CoreWeatherDependency()))`, or
    /// `withDependencies(CoreWeatherDependency()) { … }` around the code".
    @Test(.dependencies(CoreWeatherDependency()), .allowsLiveDependencies)
    func theScopesTheGlobalInstallMessageSuggestsCompile() {
        let inBlock = withDependencies(CoreWeatherDependency()) { weatherInjector.dependencies }
        #expect(inBlock is CoreWeatherDependency && weatherInjector.dependencies is CoreWeatherDependency)
    }
}
