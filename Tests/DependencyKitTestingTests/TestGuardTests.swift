import DependencyKit
import DependencyKitTesting
import Dispatch
import Foundation
import Testing

// MARK: - Fixtures

protocol GuardClock: Sendable { func hour() -> Int }
struct SystemGuardClock: GuardClock { func hour() -> Int { Int(Date().timeIntervalSince1970 / 3600) % 24 } }
struct FixedGuardClock: GuardClock {
    let fixed: Int
    func hour() -> Int { fixed }
}

/// A container with one live leaf, in the shape the articles teach.
/// A client that holds a connection: one instance per container, and it reaches the network.
final class GuardSession: Sendable {}

protocol GuardDependency: DependencyContainer {
    func resolveClock() -> any GuardClock
    func resolveHour() -> Int
    func resolveSession() -> GuardSession
}

extension GuardDependency {
    func makeClock() -> any GuardClock { SystemGuardClock() }
    func makeHour() -> Int { resolveClock().hour() }
    func makeSession() -> GuardSession { GuardSession() }
}

extension GuardDependency where Self: PartialContainer {
    func resolveClock() -> any GuardClock { live { makeClock() } }
    func resolveHour() -> Int { fresh { makeHour() } }
    func resolveSession() -> GuardSession { live { shared { makeSession() } } }
}

class CoreGuardDependency: DependencyContainer, GuardDependency, @unchecked Sendable {
    func resolveClock() -> any GuardClock { live { makeClock() } }
    func resolveHour() -> Int { fresh { makeHour() } }
    /// A shared live leaf: `live {}` around `shared {}`.
    func resolveSession() -> GuardSession { live { shared { makeSession() } } }
}

/// Forgets to override the shared live leaf.
final class LeakySessionDouble: CoreGuardDependency, @unchecked Sendable {}

final class SharedSessionDouble: CoreGuardDependency, @unchecked Sendable {
    override func resolveSession() -> GuardSession { shared { GuardSession() } }
}

let guardInjector = Injector<any GuardDependency> { CoreGuardDependency() }

/// Forgets to override the live leaf.
final class LeakyGuardDouble: CoreGuardDependency, @unchecked Sendable {}

/// Forgets the live leaf, and is scoped by a block inside a test that installed another container.
final class InnerScopeDouble: CoreGuardDependency, @unchecked Sendable {}

/// Overrides the live leaf but keeps the production shape, `live {}`.
final class ProductionShapedDouble: CoreGuardDependency, @unchecked Sendable {
    override func resolveClock() -> any GuardClock { live { FixedGuardClock(fixed: 9) } }
}

/// A double that implements nothing and takes every default, the live leaf included.
final class EmptyPartialDouble: DependencyContainer, GuardDependency, PartialContainer, @unchecked Sendable {}

// The live-leaf messages' suggestions, pasted with a body in place of `…`: they compile, and the
// tests below check that each message suggests exactly this line.

final class PastedSubclassDouble: CoreGuardDependency, @unchecked Sendable {
    override func resolveClock() -> any GuardClock { fresh { FixedGuardClock(fixed: 9) } }
}

final class PastedPartialDouble: DependencyContainer, GuardDependency, PartialContainer, @unchecked Sendable {
    func resolveClock() -> any GuardClock { fresh { FixedGuardClock(fixed: 9) } }
}

/// Containers of injectors that one test each reads from escaped work or installs globally, so that
/// the once-per-process findings of one test are not taken by another.
final class DetachedReaderContainer: DependencyContainer, @unchecked Sendable {
    func resolveValue() -> Int { fresh { 1 } }
}

let detachedReaderInjector = Injector<DetachedReaderContainer> { DetachedReaderContainer() }

final class OnPurposeReaderContainer: DependencyContainer, @unchecked Sendable {
    func resolveValue() -> Int { fresh { 3 } }
}

let onPurposeReaderInjector = Injector<OnPurposeReaderContainer> { OnPurposeReaderContainer() }

/// A library's container and an app's refinement of it, whose global is the library's: what escaped
/// work reads through `dependencies(as:)` in a test process.
protocol EscapeLibraryDependency: DependencyContainer {
    func resolveName() -> String
}

protocol EscapeAppDependency: EscapeLibraryDependency {
    func resolveGreeting() -> String
}

class EscapeLibraryCore: DependencyContainer, EscapeLibraryDependency, @unchecked Sendable {
    func resolveName() -> String { fresh { "library" } }
}

final class EscapeAppCore: EscapeLibraryCore, EscapeAppDependency, @unchecked Sendable {
    func resolveGreeting() -> String { fresh { "hello from the app" } }
}

let escapeInjector = Injector<any EscapeLibraryDependency> { EscapeLibraryCore() }

/// A global whose one resolve is a live leaf, read on purpose from detached work.
final class OnPurposeLiveContainer: DependencyContainer, @unchecked Sendable {
    func resolveHour() -> Int { live { 14 } }
}

let onPurposeLiveInjector = Injector<OnPurposeLiveContainer> { OnPurposeLiveContainer() }

final class SwappedContainer: DependencyContainer, @unchecked Sendable {
    func resolveValue() -> Int { fresh { 2 } }
}

let swappedInjector = Injector<SwappedContainer> { SwappedContainer() }

final class GuardedInstallContainer: DependencyContainer, @unchecked Sendable {}

let guardedInstallInjector = Injector<GuardedInstallContainer> { GuardedInstallContainer() }

final class UnguardedInstallContainer: DependencyContainer, @unchecked Sendable {}

let unguardedInstallInjector = Injector<UnguardedInstallContainer> { UnguardedInstallContainer() }

protocol BlockEscapeDependency: DependencyContainer {
    func resolveName() -> String
}

class CoreBlockEscapeDependency: DependencyContainer, BlockEscapeDependency, @unchecked Sendable {
    func resolveName() -> String { fresh { "global" } }
}

final class BlockScopedDependency: CoreBlockEscapeDependency, @unchecked Sendable {
    override func resolveName() -> String { fresh { "block" } }
}

let blockEscapeInjector = Injector<any BlockEscapeDependency> { CoreBlockEscapeDependency() }

/// Stands for a guarded test running elsewhere in the process at the same time: while it lives,
/// every resolution is diagnosed and the storage counts a live test scope.
private func guardedTestElsewhere<Container>(on injector: Injector<Container>) -> GuardedTest {
    TestGuardReporting.install()  // as the trait does, in case no guarded test has run yet
    // A container of the injector's kind, as a test scoped to it runs with.
    let container = (injector.global as AnyObject) as? DependencyContainer ?? DependencyContainer()
    return GuardedTest(container: container) { message in
        Issue.record("a test elsewhere was blamed: \(message)")
    }
}

/// Runs each body on an OS thread of its own, which carries no task-local value, and returns when
/// all have finished.
private func runOnThreads(_ bodies: [@Sendable () -> Void]) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let remaining = Locked(bodies.count)
        for body in bodies {
            Thread {
                body()
                if remaining.withLock({ count in
                    count -= 1
                    return count == 0
                }) {
                    continuation.resume()
                }
            }.start()
        }
    }
}

private func comments(of issue: Issue) -> String { issue.comments.map(\.rawValue).joined() }

// MARK: - No false alarms

/// Findings that no test can be blamed for never fail someone else's test: the run stays green
/// while guarded tests run beside them.
@Suite struct UnattributableFindingsTests {
    /// Guarded tests running at the same time as the ones below.
    @Test(.dependencies(PastedSubclassDouble()), arguments: 0..<8)
    func guardedCasesRunBeside(_ index: Int) async {
        await Task.yield()
        #expect(guardInjector.dependencies.resolveHour() == 9)
    }

    @Test func anUnguardedTestReadingTheGlobalFromDetachedWorkIsOneWarning() async {
        let elsewhere = guardedTestElsewhere(on: detachedReaderInjector)
        // In the unguarded test's own task: it reads the global on purpose, nothing to report.
        #expect(detachedReaderInjector.dependencies.resolveValue() == 1)
        #expect(TestGuardReporting.recorded(containing: "(DetachedReaderContainer)").isEmpty)
        for _ in 0..<20 {
            _ = await Task.detached { detachedReaderInjector.dependencies.resolveValue() }.value
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                _ = detachedReaderInjector.dependencies.resolveValue()
                continuation.resume()
            }
        }
        withExtendedLifetime(elsewhere) {}
        let records = TestGuardReporting.recorded(containing: "(DetachedReaderContainer)")
        #expect(records.count == 1)
        #expect(records.first?.severity == .warning)
        #expect(records.first?.testName == nil)
    }

    @Test func detachedWorkThatReadsTheGlobalOnPurposeIsNotReported() async {
        let elsewhere = guardedTestElsewhere(on: onPurposeReaderInjector)
        for _ in 0..<20 {
            let value = await Task.detached {
                DependencyContainer.Context.global.run { onPurposeReaderInjector.dependencies.resolveValue() }
            }.value
            #expect(value == 3)
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                _ = DependencyContainer.Context.global.run { onPurposeReaderInjector.dependencies.resolveValue() }
                continuation.resume()
            }
        }
        #expect(TestGuardReporting.recorded(containing: "(OnPurposeReaderContainer)").isEmpty)
        // The same read, unmarked, is the escaped-work warning.
        _ = await Task.detached { onPurposeReaderInjector.dependencies.resolveValue() }.value
        withExtendedLifetime(elsewhere) {}
        #expect(TestGuardReporting.recorded(containing: "(OnPurposeReaderContainer)").count == 1)
    }

    @Test func escapedWorkReadingAnAppsContainerIsAWarningNotACrash() async {
        TestGuardReporting.install()
        let context = GuardedTest(container: EscapeAppCore(), testScopes: InstalledContainers.testScopes) { message in
            Issue.record("a test elsewhere was blamed: \(message)")
        }
        for _ in 0..<5 {
            let greeting = await Task.detached {
                escapeInjector.dependencies(as: (any EscapeAppDependency).self).resolveGreeting()
            }.value
            #expect(greeting == "hello from the app")
        }
        withExtendedLifetime(context) {}
        let records = TestGuardReporting.recorded(containing: "`dependencies(as: EscapeAppDependency.self)`")
        #expect(records.count == 1)
        #expect(records.first?.testName == nil)
    }

    @Test func productionCodeRunOnPurposeThroughContextGlobalIsStillReported() async {
        let elsewhere = guardedTestElsewhere(on: onPurposeLiveInjector)
        for _ in 0..<5 {
            let hour = await Task.detached {
                DependencyContainer.Context.global.run { onPurposeLiveInjector.dependencies.resolveHour() }
            }.value
            #expect(hour == 14)
        }
        withExtendedLifetime(elsewhere) {}
        let records = TestGuardReporting.recorded(containing: "resolveHour() -> Int reaches the outside world")
        #expect(records.count == 1)
        #expect(records.first?.message.contains("`DependencyContainer.Context.global.run`") == true)
        #expect(records.first?.testName == nil)
    }

    @Test(.allowsGlobalInstalls)
    func anOSThreadSwappingTheGlobalBesideReadersIsOneWarningOfEachKind() async {
        let elsewhere = guardedTestElsewhere(on: swappedInjector)
        await runOnThreads([
            { for _ in 0..<500 { swappedInjector.dependencies = SwappedContainer() } },
            { for _ in 0..<2_000 { _ = swappedInjector.dependencies.resolveValue() } },
        ])
        withExtendedLifetime(elsewhere) {}
        let installs = TestGuardReporting.recorded(containing: "Installed SwappedContainer as the global")
        let escapes = TestGuardReporting.recorded(containing: "(SwappedContainer)")
        #expect(installs.count == 1)
        #expect(escapes.count == 1)
        #expect((installs + escapes).allSatisfy { $0.severity == .warning && $0.testName == nil })
        #expect(
            installs.first?.message.hasSuffix(
                """

                Recorded as a warning, once: no test can be blamed for work that ran outside every test's task. \
                Set DEPENDENCYKIT_TEST_GUARD=strict to make it an error. `.allowsGlobalInstalls` covers a test's \
                own tasks, not the threads it starts.
                """) == true)
    }

    @Test func workThatLeavesABlockScopeToSeeTheGlobalIsOneWarning() async {
        let elsewhere = guardedTestElsewhere(on: blockEscapeInjector)
        let names = await withDependencies(BlockScopedDependency()) {
            var names = [blockEscapeInjector.dependencies.resolveName()]
            for _ in 0..<6 {
                names.append(await Task.detached { blockEscapeInjector.dependencies.resolveName() }.value)
            }
            return names
        }
        withExtendedLifetime(elsewhere) {}
        #expect(names == ["block"] + Array(repeating: "global", count: 6))
        let records = TestGuardReporting.recorded(containing: "(CoreBlockEscapeDependency)")
        #expect(records.count == 1)
        #expect(records.first?.severity == .warning)
    }

    @Test func strictModeSaysWhyTheFindingIsAnError() {
        #expect(
            TestGuardReporting.note(for: .escapedWork, severity: .error) == """
                Recorded once, as an error because DEPENDENCYKIT_TEST_GUARD=strict: no test can be blamed for work \
                that ran outside every test's task.
                """)
        #expect(
            TestGuardReporting.note(for: .globalInstall, severity: .error) == """
                Recorded once, as an error because DEPENDENCYKIT_TEST_GUARD=strict: no test can be blamed for work \
                that ran outside every test's task. `.allowsGlobalInstalls` covers a test's own tasks, not the \
                threads it starts.
                """)
    }

    @Test func whatBecomesOfAFindingNoTestContextCarries() {
        typealias Reporting = TestGuardReporting
        #expect(Reporting.outcome(of: .escapedWork, testIsRunningHere: true, strict: false) == .dropped)
        #expect(Reporting.outcome(of: .escapedWork, testIsRunningHere: false, strict: false) == .unattributed(.warning))
        #expect(Reporting.outcome(of: .escapedWork, testIsRunningHere: false, strict: true) == .unattributed(.error))
        #expect(Reporting.outcome(of: .globalInstall, testIsRunningHere: true, strict: false) == .failsCurrentTest)
        #expect(Reporting.outcome(of: .escapedConversion, testIsRunningHere: true, strict: false) == .failsCurrentTest)
        #expect(
            Reporting.outcome(of: .escapedConversion, testIsRunningHere: false, strict: false)
                == .unattributed(.warning))
        #expect(
            Reporting.outcome(of: .globalInstall, testIsRunningHere: false, strict: false) == .unattributed(.warning))
        #expect(Reporting.outcome(of: .globalInstall, testIsRunningHere: false, strict: true) == .unattributed(.error))
    }
}

// MARK: - True positives, in the words the docs quote

@Suite struct LiveLeafMessageTests {
    @Test(.dependencies(LeakyGuardDouble()))
    func aForgottenLiveLeafFailsTheTestOnceWithAnOverrideThatCompiles() {
        withKnownIssue {
            for _ in 0..<3 { _ = guardInjector.dependencies.resolveHour() }
        } matching: { issue in
            comments(of: issue).contains("LeakyGuardDouble")
        }
        let records = TestGuardReporting.recorded(containing: "that LeakyGuardDouble inherits")
        #expect(records.count == 1)
        #expect(records.first?.severity == .error)
        #expect(
            records.first?.message == """
                resolveClock() -> any GuardClock reaches the outside world (network, disk, clock or randomness) \
                and was served by the production code that LeakyGuardDouble inherits from CoreGuardDependency.
                Container in effect: LeakyGuardDouble, the container this test installed.
                Override it in this test, in one line, in the trait (or `withDependencies`, `withOverrides`):
                    .override({ $0.resolveClock() }, with: …)
                Or, for every test that uses the container:
                Override it in LeakyGuardDouble:
                    override func resolveClock() -> any GuardClock { fresh { … } }
                If this test means to go live (an end-to-end test), add `.allowsLiveDependencies` to it or its suite.
                """)
        // The one-line override comes first; pasted into the trait (`thePastedOneLineOverrideIsQuiet`), it
        // compiles and is quiet. The subclass suggestion, pasted into the double (`PastedSubclassDouble`), too.
        #expect(suggestions(in: records.first?.message).first == ".override({ $0.resolveClock() }, with: …)")
        #expect(
            suggestion(in: records.first?.message) == "override func resolveClock() -> any GuardClock { fresh { … } }")
    }

    @Test(.dependencies(LeakyGuardDouble(), .override({ $0.resolveClock() }, with: FixedGuardClock(fixed: 9))))
    func thePastedOneLineOverrideIsQuiet() {
        #expect(guardInjector.dependencies.resolveHour() == 9)
    }

    @Test(.dependencies(PastedSubclassDouble()))
    func thePastedOverrideIsQuiet() {
        #expect(guardInjector.dependencies.resolveHour() == 9)
    }

    @Test(.dependencies(EmptyPartialDouble()))
    func aPartialDoubleIsToldToImplementTheResolveWithoutOverride() {
        withKnownIssue {
            _ = guardInjector.dependencies.resolveHour()
        } matching: { issue in
            comments(of: issue).contains("EmptyPartialDouble")
        }
        let records = TestGuardReporting.recorded(containing: "Container in effect: EmptyPartialDouble")
        #expect(records.count == 1)
        #expect(
            records.first?.message == """
                resolveClock() -> any GuardClock reaches the outside world (network, disk, clock or randomness) \
                and was served by EmptyPartialDouble's `live {}` code: the protocol's default, or \
                EmptyPartialDouble's own resolve.
                Container in effect: EmptyPartialDouble, the container this test installed.
                Override it in this test, in one line, in the trait (or `withDependencies`, `withOverrides`):
                    .override({ $0.resolveClock() }, with: …)
                Or, for every test that uses the container:
                Implement it in EmptyPartialDouble, building the value with `fresh {}` (a double's resolves do \
                not reach the outside world):
                    func resolveClock() -> any GuardClock { fresh { … } }
                If this test means to go live (an end-to-end test), add `.allowsLiveDependencies` to it or its suite.
                """)
        // The suggestion, pasted into the double (`PastedPartialDouble`), compiles and is quiet.
        #expect(
            suggestion(in: records.first?.message) == "func resolveClock() -> any GuardClock { fresh { … } }")
    }

    @Test(.dependencies(PastedPartialDouble()))
    func thePastedPartialImplementationIsQuiet() {
        #expect(guardInjector.dependencies.resolveHour() == 9)
    }

    @Test(.dependencies(ProductionShapedDouble()))
    func aDoubleWhoseOverrideSaysLiveIsToldToSayFresh() {
        withKnownIssue {
            _ = guardInjector.dependencies.resolveHour()
        } matching: { issue in
            comments(of: issue).contains("ProductionShapedDouble")
        }
        let records = TestGuardReporting.recorded(containing: "Container in effect: ProductionShapedDouble")
        #expect(records.count == 1)
        #expect(
            records.first?.message == """
                resolveClock() -> any GuardClock reaches the outside world (network, disk, clock or randomness) \
                and was served by ProductionShapedDouble's own `live {}` code.
                Container in effect: ProductionShapedDouble, the container this test installed.
                Override it in this test, in one line, in the trait (or `withDependencies`, `withOverrides`):
                    .override({ $0.resolveClock() }, with: …)
                Or, for every test that uses the container:
                If ProductionShapedDouble is a test double, its resolve is production-shaped: build the value \
                with `fresh { … }` instead of `live { … }`. If it is a production container, give the test a \
                double that overrides it:
                    override func resolveClock() -> any GuardClock { fresh { … } }
                If this test means to go live (an end-to-end test), add `.allowsLiveDependencies` to it or its suite.
                """)
    }

    /// A library bug that ignored the test's scope would serve the global container; the message
    /// names the container in effect and the one the test installed.
    @Test(.dependencies(PastedPartialDouble()))
    func aGlobalServingInsideAGuardedTestIsNamedAsTheGlobal() {
        withKnownIssue {
            _ = guardInjector.global.resolveHour()
        } matching: { issue in
            comments(of: issue).contains("PastedPartialDouble")
        }
        let records = TestGuardReporting.recorded(containing: "not PastedPartialDouble, which this test installed")
        #expect(records.count == 1)
        #expect(
            records.first?.message.contains(
                """
                resolveClock() -> any GuardClock reaches the outside world (network, disk, clock or randomness) \
                and was served by the global container's `live {}` code.
                Container in effect: CoreGuardDependency, the global container, not PastedPartialDouble, which \
                this test installed: code in this test read the global container instead of the test's scope.
                Code in this test bypassed its scope: inside the test, `dependencies` serves the test's \
                container, and a `DependencyContainer.Context` captured in the test carries it into escaping work. Find \
                the code that read the global container directly.
                """) == true)
    }

    @Test(.dependencies(PastedSubclassDouble()))
    func aContainerFromAnInnerBlockIsNamedBesideTheTestsOwn() {
        withKnownIssue {
            _ = withDependencies(InnerScopeDouble()) { guardInjector.dependencies.resolveHour() }
        } matching: { issue in
            comments(of: issue).contains("InnerScopeDouble")
        }
        let records = TestGuardReporting.recorded(containing: "Container in effect: InnerScopeDouble")
        #expect(records.count == 1)
        #expect(
            records.first?.message.contains(
                """
                Container in effect: InnerScopeDouble, from a `withDependencies` scope inside this test (the test \
                installed PastedSubclassDouble).
                Override it in this test, in one line, in the trait (or `withDependencies`, `withOverrides`):
                    .override({ $0.resolveClock() }, with: …)
                Or, for every test that uses the container:
                Override it in InnerScopeDouble:
                    override func resolveClock() -> any GuardClock { fresh { … } }
                """) == true)
    }

    @Test(.dependencies(LeakyGuardDouble()), .allowsLiveDependencies)
    func anEndToEndTestMayGoLive() {
        #expect((0..<24).contains(guardInjector.dependencies.resolveHour()))
    }

    /// The last code line a message suggests (the one-line override, when there is one, comes first).
    private func suggestion(in message: String?) -> String? {
        suggestions(in: message).last
    }

    /// Every code line a message suggests, in order.
    private func suggestions(in message: String?) -> [String] {
        (message?.split(separator: "\n") ?? []).filter { $0.hasPrefix("    ") }.map { String($0.dropFirst(4)) }
    }
}

@Suite struct SharedLiveLeafTests {
    @Test(.dependencies(LeakySessionDouble()))
    func aSharedLiveLeafIsOneInstanceAndIsGuarded() {
        withKnownIssue {
            let first = guardInjector.dependencies.resolveSession()
            #expect(guardInjector.dependencies.resolveSession() === first)
        } matching: { issue in
            comments(of: issue).hasPrefix(
                """
                resolveSession() -> GuardSession reaches the outside world (network, disk, clock or randomness) \
                and was served by the production code that LeakySessionDouble inherits from CoreGuardDependency.
                """)
        }
    }

    @Test(.dependencies(SharedSessionDouble()))
    func aDoubleThatSharesItsOwnInstanceIsQuiet() {
        let first = guardInjector.dependencies.resolveSession()
        #expect(guardInjector.dependencies.resolveSession() === first)
    }

    @Test func inProductionASharedLiveLeafIsOneInstancePerContainer() {
        let container = CoreGuardDependency()
        #expect(container.resolveSession() === container.resolveSession())
        #expect(CoreGuardDependency().resolveSession() !== container.resolveSession())
    }
}

@Suite struct GlobalInstallReportTests {
    @Test func anInstallInsideAGuardedTestFailsThatTestOnceAndResetIsNoInstall() {
        let found = Locked<[String]>([])
        let context = GuardedTest(container: GuardedInstallContainer()) { message in
            found.withLock { $0.append(message) }
        }
        context.bind {
            guardedInstallInjector.dependencies = GuardedInstallContainer()
            guardedInstallInjector.dependencies = GuardedInstallContainer()
            guardedInstallInjector.reset()
        }
        #expect(
            found.withLock { $0 } == [
                """
                Installed GuardedInstallContainer as the global container while 1 test(s) scoped to the same \
                injector were running. Code that reads the global container (work that escaped a test's scope, \
                tests without a container of their own) now sees GuardedInstallContainer, whichever test it \
                belongs to. Give the test its own container instead: `@Test(.dependencies(GuardedInstallContainer(…)))`, \
                or `withDependencies(GuardedInstallContainer(…)) { … }` around the code, with what its `init` takes \
                in place of `…` (nothing if it takes nothing; the trait makes a new container for each test). A test \
                that must swap the global (a test of the swap itself) can say so with `.allowsGlobalInstalls`.
                """
            ])
    }

    @Test func anInstallInAnUnguardedTestFailsThatTestAtItsSourceLocation() {
        let elsewhere = guardedTestElsewhere(on: unguardedInstallInjector)
        withKnownIssue {
            unguardedInstallInjector.dependencies = UnguardedInstallContainer()
        } matching: { issue in
            comments(of: issue).hasPrefix("Installed UnguardedInstallContainer as the global container")
                && issue.sourceLocation?.fileID == Test.current?.sourceLocation.fileID
                && issue.sourceLocation?.line == Test.current?.sourceLocation.line
        }
        withExtendedLifetime(elsewhere) {}
        #expect(TestGuardReporting.recorded(containing: "Installed UnguardedInstallContainer").first?.testName != nil)
    }
}

/// One override value, declared once, for every place that takes overrides.
let eveningGuardClock: DependencyContainer.Override<any GuardDependency> = .override(
    { $0.resolveClock() }, with: FixedGuardClock(fixed: 20))

@Suite struct OneOverrideValueTests {
    @Test(.dependencies(LeakyGuardDouble(), eveningGuardClock))
    func theTraitTakesIt() {
        #expect(guardInjector.dependencies.resolveHour() == 20)
    }

    @Test func withDependenciesAndWithOverridesTakeTheSameValue() {
        let scoped = withDependencies(PastedSubclassDouble(), eveningGuardClock) {
            guardInjector.dependencies.resolveHour()
        }
        let inner = withDependencies(PastedSubclassDouble()) {
            guardInjector.withOverrides(eveningGuardClock) { guardInjector.dependencies.resolveHour() }
        }
        let array = withDependencies(
            PastedSubclassDouble(), overriding: [DependencyContainer.Override<PastedSubclassDouble>(eveningGuardClock)]
        ) {
            guardInjector.dependencies.resolveHour()
        }
        #expect(scoped == 20 && inner == 20 && array == 20)
    }
}
