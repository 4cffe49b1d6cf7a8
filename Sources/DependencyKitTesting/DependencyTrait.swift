public import DependencyKit
public import Testing

/// A Swift Testing trait that gives each test its own container.
///
/// Apply it to a test or a suite. Every test case — each argument of a parameterized test, each
/// test of a suite — runs inside ``DependencyKit/withDependencies(_:isolation:operation:)``
/// with a container made for it alone, served by every injector whose container type it is, so tests that run in parallel never see each other's
/// containers, and shared instances never leak from one test into the next:
///
/// ```swift
/// @Suite(.dependencies(TestDependency()))
/// struct LoginTests {
///     @Test(.dependencies(OfflineDependency()))   // the innermost trait wins
///     func showsCachedUserWhenOffline() async { ... }
/// }
/// ```
///
/// The global container is never touched. Work that escapes the test's task tree
/// (`Task.detached`, a `DispatchQueue` closure) must capture a ``DependencyKit/DependencyContainer/Context``.
///
/// ## The test guard
///
/// The trait also guards the test against reaching production by accident. While it runs:
///
/// - **Live leaves.** A resolve built with `live {}` (the network, the disk, the clock) that the
///   test's container serves with production code fails the test, once per resolve, naming the
///   resolve, the container in effect and the override to paste. Add
///   ``DependencyGuardExemption/allowsLiveDependencies`` to a test or suite that means to go live.
/// - **Escaped work.** A resolution served by a *global* container to work that escaped a test's
///   scope (`Task.detached`, a `DispatchQueue` closure, a thread) is reported with the resolution
///   chain and the ``DependencyKit/DependencyContainer/Context`` fix. Such work carries no trace of its test,
///   so it is a warning, once per resolve and container type per process, and never fails another
///   test; `DEPENDENCYKIT_TEST_GUARD=strict` in the environment makes it an error.
///   Such work reading `dependencies(as:)` of a type the global container is not gets the newest
///   container of that type a test ran with, instead of stopping the process.
/// - **Work left running.** A `Task {}` the test started keeps its scope after the test returns;
///   what the guard finds there afterwards is a warning naming the test that left it running.
/// - **Overrides.** A test whose override the resolve cannot build (a body that is a single
///   `return`) fails when it begins, and its body does not run.
/// - **Global installs.** Installing a global container in an injector while tests scoped by
///   this trait run fails the test that made the install (a warning when a thread made it).
///   ``DependencyKit/Injector/reset()`` is not an install. Add
///   ``DependencyGuardExemption/allowsGlobalInstalls`` to a test that swaps the global on purpose.
///
/// None of it runs outside tests: production code never creates a guard, and its resolutions
/// take the same path as before.
public struct DependencyTrait<Container: DependencyContainer>: TestTrait, SuiteTrait, TestScoping {
    private let makeContainer: @Sendable () -> Container
    private let overrides: [DependencyContainer.Override<Container>]

    /// Creates the trait; `makeContainer` runs once per test case.
    /// - Parameters:
    ///   - makeContainer: Makes the container a test case runs with.
    ///   - overrides: Replace resolves of that container for the test case (see
    ///     ``DependencyKit/DependencyContainer/Override``); recorded once per test case, in order.
    public init(
        _ makeContainer: @escaping @Sendable () -> Container,
        overrides: [DependencyContainer.Override<Container>] = []
    ) {
        self.makeContainer = makeContainer
        self.overrides = overrides
    }

    /// Applied to a suite, the trait applies to every test in it.
    public var isRecursive: Bool { true }

    /// Scopes each test case, not the suite or the test function as a whole, so every case
    /// gets a container of its own.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs the test case with a fresh container in effect.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        TestGuardReporting.install()
        let container = makeContainer()
        let warn: @Sendable (String) -> Void = { TestGuardReporting.record($0, severity: .warning, in: test) }
        let context = GuardedTest(
            container: container, testName: test.name, warn: warn,
            report: { TestGuardReporting.record($0, severity: .error, in: test) })
        defer { context.end() }
        // The context first, so that a malformed override fails this test case (not the run), before
        // its body runs: a test whose overrides are not all in effect would test something else.
        try await context.bind {
            try await withDependencies(container, overriding: overrides, reportingUnused: warn) {
                guard context.recordedProblems.loadAcquire() == 0 else { return }
                try await function()
            }
        }
    }
}

/// A trait that exempts a test or suite from one check of the test guard.
///
/// ```swift
/// @Test(.dependencies(EndToEndDependency()), .allowsLiveDependencies)
/// func signsUpAgainstTheRealServer() async throws { ... }
/// ```
public struct DependencyGuardExemption: TestTrait, SuiteTrait, TestScoping {
    let exemptions: TestGuard.Exemptions

    /// Applied to a suite, the exemption applies to every test in it.
    public var isRecursive: Bool { true }

    /// Scopes each test case.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs the test case with the exemption in effect.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await TestGuard.$exemptions.withValue(TestGuard.exemptions.union(exemptions), operation: function)
    }
}

extension Trait where Self == DependencyGuardExemption {
    /// Lets the test's container serve live leaves (`live {}`) with production code: for
    /// end-to-end tests that mean to reach the network or the disk.
    public static var allowsLiveDependencies: Self { DependencyGuardExemption(exemptions: .liveDependencies) }

    /// Lets the test install global containers while tests scoped to the same injector run: for
    /// tests of the global swap itself.
    public static var allowsGlobalInstalls: Self { DependencyGuardExemption(exemptions: .globalInstalls) }
}

extension Trait {
    /// Runs each test case with its own container, made by `container`, with `overrides` replacing
    /// some of its resolves.
    ///
    /// ```swift
    /// @Test(.dependencies(ScopedDependency()))
    /// func workerUsesScopedService() { ... }
    ///
    /// @Test(.dependencies(CoreGreetingDependency(), .override({ $0.resolveClock() }, with: FixedClock(fixedHour: 23))))
    /// func greetsAtNight() { ... }
    /// ```
    /// - Parameters:
    ///   - container: Makes the container; evaluated once per test case.
    ///   - overrides: Replace resolves of the container (see ``DependencyKit/DependencyContainer/Override``);
    ///     their values are made once per test case.
    /// - Returns: The trait.
    public static func dependencies<Container: DependencyContainer>(
        _ container: @autoclosure @escaping @Sendable () -> Container,
        _ overrides: DependencyContainer.Override<Container>...
    ) -> Self where Self == DependencyTrait<Container> {
        DependencyTrait(container, overrides: overrides)
    }

    /// Runs each test case with its own container, made by `container`, with overrides declared once for
    /// a container protocol (`Override<any GreetingDependency>`) replacing some of its resolves.
    ///
    /// See ``dependencies(_:_:)``.
    /// - Parameters:
    ///   - container: Makes the container; evaluated once per test case. It must be a `Declared`.
    ///   - override: Replaces one resolve of the container.
    ///   - more: More overrides, in order.
    /// - Returns: The trait.
    public static func dependencies<Container: DependencyContainer, Declared>(
        _ container: @autoclosure @escaping @Sendable () -> Container,
        _ override: DependencyContainer.Override<Declared>,
        _ more: DependencyContainer.Override<Declared>...
    ) -> Self where Self == DependencyTrait<Container> {
        DependencyTrait(container, overrides: ([override] + more).map(DependencyContainer.Override<Container>.init))
    }
}
