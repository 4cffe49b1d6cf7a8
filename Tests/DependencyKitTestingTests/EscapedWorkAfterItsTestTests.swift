import DependencyKit
import DependencyKitTesting
import Foundation
import Testing

// MARK: - Fixtures

/// A library's container and an app's refinement of it, whose global is the library's, used by no
/// other test: what escaped work reads through `dependencies(as:)` after its test ended.
protocol EndedLibraryDependency: DependencyContainer {
    func resolveName() -> String
}

protocol EndedAppDependency: EndedLibraryDependency {
    func resolveGreeting() -> String
}

class EndedLibraryCore: DependencyContainer, EndedLibraryDependency, @unchecked Sendable {
    func resolveName() -> String { fresh { "library" } }
}

final class EndedAppCore: EndedLibraryCore, EndedAppDependency, @unchecked Sendable {
    func resolveGreeting() -> String { fresh { "hello from the ended test" } }
}

let endedEscapeInjector = Injector<any EndedLibraryDependency> { EndedLibraryCore() }

/// The same pair again, for escaped work that reads through `@Inject(_:as:_:)`: types of its own, so that its
/// report is told from the `dependencies(as:)` test's.
protocol EndedInjectLibraryDependency: DependencyContainer {
    func resolveName() -> String
}

protocol EndedInjectAppDependency: EndedInjectLibraryDependency {
    func resolveGreeting() -> String
}

class EndedInjectLibraryCore: DependencyContainer, EndedInjectLibraryDependency, @unchecked Sendable {
    func resolveName() -> String { fresh { "library" } }
}

final class EndedInjectAppCore: EndedInjectLibraryCore, EndedInjectAppDependency, @unchecked Sendable {
    func resolveGreeting() -> String { fresh { "hello through @Inject" } }
}

let endedInjectEscapeInjector = Injector<any EndedInjectLibraryDependency> { EndedInjectLibraryCore() }

/// A view model that reads an app resolve through the library's injector.
struct EndedInjectGreeter: Sendable {
    @Inject(endedInjectEscapeInjector, as: (any EndedInjectAppDependency).self, { $0.resolveGreeting() })
    var greeting: String
}

/// A container whose one resolve is a live leaf, for work a test leaves running.
final class LeftRunningCore: DependencyContainer, @unchecked Sendable {
    func resolveMinute() -> Int { live { 17 } }
}

let leftRunningInjector = Injector<LeftRunningCore> { LeftRunningCore() }

/// A gate a task waits at until the test opens it; no timing decides anything.
final class Gate: Sendable {
    private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

// MARK: - Issue 46, items 1 and 2, in Swift Testing

@Suite struct EscapedWorkAfterItsTestTests {
    /// A test on the app's refined container ends; the only test running uses the library's. Detached
    /// work reading `dependencies(as:)` gets the ended test's container and a warning, never a stop.
    @Test func escapedWorkReadingARefinedContainerAfterItsTestEndedGetsItWhileAnotherKindOfTestRuns() async throws {
        let test = try #require(Test.current)
        // The app's test: its trait, run to its end here, with a body that leaves nothing behind.
        try await DependencyTrait({ EndedAppCore() }).provideScope(for: test, testCase: Test.Case.current) {}
        // The only guarded test still running uses a container that is not an app's.
        let running = GuardedTest(container: EndedLibraryCore()) { message in
            Issue.record("the running test was blamed: \(message)")
        }
        for _ in 0..<3 {
            let greeting = await Task.detached {
                endedEscapeInjector.dependencies(as: (any EndedAppDependency).self).resolveGreeting()
            }.value
            #expect(greeting == "hello from the ended test")
        }
        withExtendedLifetime(running) {}
        let records = TestGuardReporting.recorded(containing: "`dependencies(as: EndedAppDependency.self)`")
        #expect(records.count == 1)
        #expect(records.first?.severity == .warning)
        #expect(records.first?.testName == nil)
        #expect(
            records.first?.message.contains(
                "was given the container of a test that runs or ran with one, a EndedAppCore") == true)
    }

    /// `@Inject(_:as:_:)` converts its container as `dependencies(as:)` does: escaped work reading it after its
    /// test ended gets that test's container and a warning, where it stopped the process with a cast of its own.
    @Test func escapedWorkReadingAnInjectOfARefinedContainerAfterItsTestEndedGetsIt() async throws {
        let test = try #require(Test.current)
        try await DependencyTrait({ EndedInjectAppCore() }).provideScope(for: test, testCase: Test.Case.current) {}
        let running = GuardedTest(container: EndedInjectLibraryCore()) { message in
            Issue.record("the running test was blamed: \(message)")
        }
        for _ in 0..<3 {
            let greeting = await Task.detached { EndedInjectGreeter().greeting }.value
            #expect(greeting == "hello through @Inject")
        }
        withExtendedLifetime(running) {}
        let records = TestGuardReporting.recorded(containing: "EndedInjectAppDependency.self")
        #expect(records.count == 1)
        #expect(records.first?.severity == .warning)
        #expect(records.first?.message.contains("a EndedInjectAppCore") == true)
    }

    /// A `Task {}` inherits its test's scope, so what it resolves after the test ended is known to be
    /// that test's: a warning naming it (the test can no longer fail), not an error on whatever runs.
    @Test func aTaskLeftRunningByATestIsAWarningNamingThatTest() async throws {
        let test = try #require(Test.current)
        let gate = Gate()
        let left = Locked<Task<Int, Never>?>(nil)
        try await DependencyTrait({ LeftRunningCore() }).provideScope(for: test, testCase: Test.Case.current) {
            left.withLock {
                $0 = Task {
                    await gate.wait()
                    return leftRunningInjector.dependencies.resolveMinute()
                }
            }
        }
        gate.open()
        let hour = await left.withLock { $0 }?.value
        #expect(hour == 17)
        let records = TestGuardReporting.recorded(containing: "resolveMinute() -> Int reaches the outside world")
            .filter { $0.message.contains("LeftRunningCore") }
        #expect(records.count == 1)
        #expect(records.first?.severity == .warning)
        #expect(
            records.first?.message.contains(
                "Found after \(test.name) ended, in work \(test.name) left running: a `Task {}` it started") == true)
    }
}
