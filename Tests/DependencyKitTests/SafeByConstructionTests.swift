import DependencyKit
import DependencyKitTesting
import Foundation
import Testing

// MARK: - Fixtures

protocol Ticker: Sendable { func now() -> Int }
struct SystemTicker: Ticker { func now() -> Int { Int(Date().timeIntervalSince1970) } }
struct FixedTicker: Ticker { func now() -> Int { 42 } }

/// A container with one live leaf, declared in the shape the docs teach.
protocol TickerDependency: DependencyContainer {
    func resolveTicker() -> any Ticker
    func resolveStamp() -> String
}

extension TickerDependency {
    func makeStamp() -> String { "t=\(resolveTicker().now())" }
}

class CoreTickerDependency: DependencyContainer, TickerDependency, @unchecked Sendable {
    func resolveTicker() -> any Ticker { live { SystemTicker() } }
    func resolveStamp() -> String { fresh { makeStamp() } }
}

/// Forgets to override the live leaf.
final class LeakyTickerDependency: CoreTickerDependency, @unchecked Sendable {}

final class FixedTickerDependency: CoreTickerDependency, @unchecked Sendable {
    override func resolveTicker() -> any Ticker { fresh { FixedTicker() } }
}

let tickerInjector = Injector<any TickerDependency> { CoreTickerDependency() }

/// Two resolves that need each other, with nothing but `fresh {}`: a newcomer's cycle.
final class MutualContainer: DependencyContainer, @unchecked Sendable {
    func resolveLeft() -> [Int] { fresh { resolveRight() + [1] } }
    func resolveRight() -> [Int] { fresh { resolveLeft() + [2] } }
}

/// Two resolves, one nested in the other, and no cycle.
final class ChainContainer: DependencyContainer, @unchecked Sendable {
    func resolveTop() -> [Int] { fresh { resolveBottom() + [1] } }
    func resolveBottom() -> [Int] { fresh { [2] } }
}

/// A resolve that traces what it resolves.
final class TracingInside: DependencyContainer, @unchecked Sendable {
    func resolveTrace() -> Diagnostics.ResolutionGraph {
        fresh { Diagnostics.trace { _ = ChainContainer().resolveTop() }.graph }
    }
}

/// A tree node that creates its children with a factory of its own kind: recursion, not a cycle.
final class TreeNode: FactoryModule, Sendable {
    let children: [TreeNode]

    init(dependency: Void, payload: Int) {
        children = payload > 0 ? [DependencyKit.Factory<TreeNode>().create(payload: payload - 1)] : []
    }

    var depth: Int { 1 + (children.first?.depth ?? 0) }
}

/// A folder page creates section pages, which create folder pages: recursion through two types.
final class FolderPage: FactoryModule, Sendable {
    let section: SectionPage?
    init(dependency: Void, payload: Int) {
        section = payload > 0 ? DependencyKit.Factory<SectionPage>().create(payload: payload - 1) : nil
    }
}

final class SectionPage: FactoryModule, Sendable {
    let folder: FolderPage?
    init(dependency: Void, payload: Int) {
        folder = payload > 0 ? DependencyKit.Factory<FolderPage>().create(payload: payload - 1) : nil
    }
}

// MARK: - Tests

@Suite struct LiveLeafGuardTests {
    @Test(.dependencies(LeakyTickerDependency()))
    func aLiveLeafServedByProductionCodeInATestIsRecorded() {
        withKnownIssue {
            _ = tickerInjector.dependencies.resolveStamp()
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("resolveTicker()") && text.contains("LeakyTickerDependency")
                && text.contains("CoreTickerDependency") && text.contains("override func resolveTicker()")
        }
    }

    @Test(.dependencies(FixedTickerDependency()))
    func anOverriddenLiveLeafIsQuiet() {
        #expect(tickerInjector.dependencies.resolveStamp() == "t=42")
    }

    @Test(.dependencies(LeakyTickerDependency()), .allowsLiveDependencies)
    func anEndToEndTestMayGoLive() {
        #expect(tickerInjector.dependencies.resolveStamp().hasPrefix("t="))
    }

    @Test(.dependencies(FixedTickerDependency()))
    func aGlobalInstallWhileTestsAreScopedToTheInjectorIsRecorded() {
        let previous = tickerInjector.global
        withKnownIssue {
            tickerInjector.dependencies = CoreTickerDependency()
            tickerInjector.install(previous)  // reported too: still a global install
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("as the global container while") && text.contains(".dependencies(")
        }
    }
}

@Suite struct EscapedWorkTests {
    @Test func workThatEscapesAGuardedTestIsReportedWithTheFix() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            TestGuard.setUnattributedHandler { finding in
                guard finding.kind == .escapedWork else { return }
                FileHandle.standardError.write(Data(finding.message().utf8))
                exit(1)
            }
            let context = GuardedTest(testScopes: InstalledContainers.testScopes) { _ in }
            await context.bind {
                await withDependencies(FixedTickerDependency()) {
                    _ = await Task.detached { tickerInjector.dependencies.resolveStamp() }.value
                }
            }
        }
        let output = standardError(of: result)
        #expect(output.contains("resolveStamp() -> String was served by the global container"), "\(output)")
        #expect(output.contains("DependencyContainer.Context.capture()"), "\(output)")
    }
}

@Suite struct CycleNamingTests {
    @Test func aCycleIsNamedEvenWithCycleCheckingOff() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Diagnostics.checksCycles = false
            _ = MutualContainer().resolveLeft()
        }
        let output = standardError(of: result)
        #expect(output.contains("Dependency cycle:"), "\(output)")
        #expect(output.contains("resolveLeft() -> Array<Int> [fresh, MutualContainer]"), "\(output)")
        #expect(output.contains("resolveRight() -> Array<Int> [fresh, MutualContainer]"), "\(output)")
        #expect(output.contains("nested more than 512"), "\(output)")
    }

    /// With a trace live, the graph's outermost resolution biases the thread's depth so that its
    /// nested resolutions are diagnosed too; the runaway check must still count real depth, or the
    /// first of them would stop "without repeating" instead of naming the cycle.
    @Test func aCycleInsideATraceIsNamedWithCycleCheckingOff() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Diagnostics.checksCycles = false
            _ = Diagnostics.trace { MutualContainer().resolveLeft() }
        }
        let output = standardError(of: result)
        #expect(output.contains("Dependency cycle:"), "\(output)")
        #expect(output.contains("resolveLeft() -> Array<Int> [fresh, MutualContainer]"), "\(output)")
        #expect(output.contains("nested more than 512"), "\(output)")
    }

    /// Every way out of a resolution leaves the thread's depth as it found it: returning, throwing,
    /// and both again inside a trace (the biased path).
    @Test func theDepthIsBalancedOnEveryWayOut() {
        #expect(storedResolutionDepthOnThisThread() == 0)
        #expect(ChainContainer().resolveTop() == [2, 1])
        #expect(storedResolutionDepthOnThisThread() == 0)
        #expect(throws: PluginError.missing("nope")) { try PluginHost().resolvePlugin("nope") }
        #expect(storedResolutionDepthOnThisThread() == 0)
        let (traced, graph) = Diagnostics.trace { () -> Result<any Plugin, PluginError> in
            #expect(throws: PluginError.missing("nope")) { try PluginHost().resolvePlugin("nope") }
            return Result { () throws(PluginError) in try PluginHost().resolvePlugin("leaf") }
        }
        #expect((try? traced.get()) is LeafPlugin)
        #expect(graph.nodes.map(\.name) == ["resolvePlugin(nope)", "resolvePlugin(leaf)"])
        #expect(storedResolutionDepthOnThisThread() == 0)
    }

    /// In a release build the graph's outermost resolution reads the diagnostics word before a trace
    /// begun inside it counts itself there; the trace must still see what it runs.
    @Test func aTraceBegunInsideAResolveRecordsWhatItRuns() {
        let graph = TracingInside().resolveTrace()
        #expect(graph.nodes.map(\.name) == ["resolveTop()", "resolveBottom()"])
        #expect(storedResolutionDepthOnThisThread() == 0)
    }

    @Test func recursionThroughAFactoryWithPayloadsIsNotACycle() {
        let root = DependencyKit.Factory<TreeNode>().create(payload: 40)
        #expect(root.depth == 41)
    }

    @Test func recursionThroughTwoModuleTypesIsNotACycle() {
        var page: FolderPage? = DependencyKit.Factory<FolderPage>().create(payload: 30)
        var levels = 0
        while let current = page {
            levels += 1
            page = current.section?.folder
        }
        #expect(levels == 16)
    }

    /// Thrown in every build: by the cycle check where it is on (debug), by the depth guard where
    /// it is off (release).
    @Test func aRegistryCycleIsThrownNotTrapped() {
        do {
            _ = try loopingPluginRegistry().resolve((any Plugin).self, tag: "a")
            Issue.record("expected a cycle")
        } catch .cycle(let cycle) {
            let names = cycle.chain.map(\.name)
            #expect(names.first == names.last)
            #expect(Set(names) == ["resolve(Plugin, tag: \"a\")", "resolve(Plugin, tag: \"b\")"])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
