import Dispatch
import Foundation
import Testing

@testable import DependencyKit

/// A container whose resolves build on each other, for overrides.
protocol RouteDependency: DependencyContainer {
    func resolveHour() -> Int
    func resolveGreeting() -> String
    func resolvePath() -> [String]
    func resolveURL() -> String
    func resolveRecorder() -> RouteRecorder
    func resolveUnwrapped() -> Int
    func resolveAsyncHour() async -> Int
    func resolveLabel() -> any CustomStringConvertible & Sendable
}

/// Counts how often production code ran, and holds what a stateful fake keeps.
final class RouteRecorder: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var values: [String] = []

    func note(_ value: String) { lock.withLock { values.append(value) } }
    var notes: [String] { lock.withLock { values } }
}

class RouteCore: DependencyContainer, RouteDependency, @unchecked Sendable {
    let production = RouteRecorder()

    func resolveHour() -> Int {
        live {
            production.note("hour")
            return 9
        }
    }
    func resolveGreeting() -> String { fresh { resolveHour() < 12 ? "Good morning" : "Good evening" } }
    func resolvePath() -> [String] { fresh { ["root"] } }
    func resolveURL() -> String { fresh { "/" + resolvePath().joined(separator: "/") } }
    func resolveRecorder() -> RouteRecorder { shared { RouteRecorder() } }
    func resolveUnwrapped() -> Int { 7 }
    // A body that is a single `return` builds its expression's type: an Int.
    func resolveLabel() -> any CustomStringConvertible & Sendable { fresh { return Int(5) } }
    func resolveAsyncHour() async -> Int {
        await fresh {
            await Task.yield()
            return resolveHour()
        }
    }
}

let routeInjector = Injector<any RouteDependency> { RouteCore() }

@Suite struct OverrideTests {
    @Test func aValueOverrideCascadesAndNeverRunsProductionCode() {
        let container = RouteCore()
        let greeting = withDependencies(container, .override({ $0.resolveHour() }, with: 23)) {
            routeInjector.dependencies.resolveGreeting()
        }
        #expect(greeting == "Good evening")
        #expect(container.production.notes.isEmpty)
    }

    @Test func anAsyncResolveBuildsOnTheOverride() async {
        let hour = await withDependencies(RouteCore(), .override({ $0.resolveHour() }, with: 23)) {
            await routeInjector.dependencies.resolveAsyncHour()
        }
        #expect(hour == 23)
    }

    @Test func theOverrideEndsWithItsScope() {
        let container = RouteCore()
        withDependencies(container) {
            let inside = routeInjector.withOverrides(.override({ $0.resolveHour() }, with: 23)) {
                routeInjector.dependencies.resolveGreeting()
            }
            #expect(inside == "Good evening")
            #expect(routeInjector.dependencies.resolveGreeting() == "Good morning")
        }
    }

    @Test func aRelativeOverrideTransformsTheEnclosingValue() {
        withDependencies(RouteCore(), .override({ $0.resolvePath() }) { $0 + ["a1"] }) {
            #expect(routeInjector.dependencies.resolveURL() == "/root/a1")
            routeInjector.withOverrides(.override({ $0.resolvePath() }) { $0 + ["b2"] }) {
                #expect(routeInjector.dependencies.resolveURL() == "/root/a1/b2")
            }
            routeInjector.withOverrides(.override({ $0.resolvePath() }, with: ["other"])) {
                #expect(routeInjector.dependencies.resolvePath() == ["other"])
            }
            #expect(routeInjector.dependencies.resolvePath() == ["root", "a1"])
        }
    }

    @Test func laterOverridesOfOneScopeBuildOnEarlierOnes() {
        let url = withDependencies(
            RouteCore(),
            .override({ $0.resolvePath() }, with: ["a"]),
            .override({ $0.resolveURL() }) { $0 + "?q" }
        ) {
            routeInjector.dependencies.resolveURL()
        }
        #expect(url == "/a?q")
    }

    @Test func aValueIsOneInstanceForTheScope() {
        let fake = RouteRecorder()
        withDependencies(RouteCore(), .override({ $0.resolveRecorder() }, with: fake)) {
            routeInjector.dependencies.resolveRecorder().note("first")
            routeInjector.dependencies.resolveRecorder().note("second")
        }
        #expect(fake.notes == ["first", "second"])
    }

    @Test func anOverrideAnswersOnlyTheContainerItWasMadeFor() {
        let other = RouteCore()
        withDependencies(RouteCore(), .override({ $0.resolveHour() }, with: 23)) {
            #expect(routeInjector.dependencies.resolveHour() == 23)
            #expect(other.resolveHour() == 9)
            withDependencies(RouteCore()) {
                #expect(routeInjector.dependencies.resolveHour() == 9)
            }
        }
    }

    @Test func parallelScopesNeverSeeEachOthersOverrides() async {
        await withTaskGroup(of: (Int, Int, String).self) { group in
            for hour in 0..<64 {
                group.addTask {
                    await withDependencies(RouteCore(), .override({ $0.resolveHour() }, with: hour)) {
                        await Task.yield()
                        return (
                            hour, routeInjector.dependencies.resolveHour(), routeInjector.dependencies.resolveGreeting()
                        )
                    }
                }
            }
            for await (hour, seen, greeting) in group {
                #expect(seen == hour)
                #expect(greeting == (hour < 12 ? "Good morning" : "Good evening"))
            }
        }
    }

    @Test func escapingWorkThatReentersACapturedContextKeepsTheOverrides() async {
        let hour = await withDependencies(RouteCore(), .override({ $0.resolveHour() }, with: 23)) {
            let context = DependencyContainer.Context.capture()
            return await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(returning: context.run { routeInjector.dependencies.resolveHour() })
                }
            }
        }
        #expect(hour == 23)
    }

    @Test func aResolveThatBuildsAMorePreciseTypeTakesAValueOfThatType() async {
        let label = withDependencies(RouteCore(), .override({ $0.resolveLabel() }, with: 6)) {
            routeInjector.dependencies.resolveLabel().description
        }
        #expect(label == "6")
        // A request's value scope answers it too, and the value is stored as the existential the override
        // names: it is taken out as the `Int` the resolve builds.
        let labels = await withDependencies(RouteCore()) {
            let sync = routeInjector.withOverrides(.override({ $0.resolveLabel() }, with: 7)) {
                routeInjector.dependencies.resolveLabel().description
            }
            let async = await routeInjector.withOverrides(.override({ $0.resolveLabel() }, with: 8)) {
                await Task.yield()
                return routeInjector.dependencies.resolveLabel().description
            }
            return [sync, async]
        }
        #expect(labels == ["7", "8"])
    }

    @Test func aValueOfAnotherTypeThanTheResolveBuildsIsRejectedWhenTheScopeBegins() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            withDependencies(RouteCore(), .override({ $0.resolveLabel() }, with: "six")) {}
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("selected resolveLabel() of RouteCore, which builds a Int"), "\(output)")
        #expect(output.contains("a single `return` statement"), "\(output)")
        #expect(output.contains("drop the `return`"), "\(output)")
        #expect(output.contains("as any Clock"), "\(output)")
    }

    @Test func aResolveNotBuiltWithFreshIsRejectedWhenTheScopeBegins() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            withDependencies(RouteCore(), .override({ $0.resolveUnwrapped() }, with: 1)) {}
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("resolved nothing that DependencyKit can see"), "\(output)")
        #expect(output.contains("`fresh {}`, `live {}` or `shared {}`"), "\(output)")
    }

    @Test func aClosureThatSelectsTheWrongResolveIsRejectedWhenTheScopeBegins() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            withDependencies(RouteCore(), .override({ $0.resolveGreeting().count }, with: 1)) {}
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            output.contains("An override of Int selected resolveGreeting() of RouteCore, which builds a String"),
            "\(output)")
    }
}
