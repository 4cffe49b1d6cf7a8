public import DependencyKit
public import Testing

/// A Swift Testing trait that gives each test its own container.
///
/// Apply it to a test or a suite. Every test case — each argument of a parameterized test, each
/// test of a suite — runs inside ``DependencyKit/withDependencies(_:isolation:operation:)``
/// with a container made for it alone, so tests that run in parallel never see each other's
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
/// (`Task.detached`, a `DispatchQueue` closure) must capture a ``DependencyKit/DependencyContext``.
public struct DependencyTrait<Container: InjectableContainer>: TestTrait, SuiteTrait, TestScoping {
    private let makeContainer: @Sendable () -> Container

    /// Creates the trait; `makeContainer` runs once per test case.
    /// - Parameter makeContainer: Makes the container a test case runs with.
    public init(_ makeContainer: @escaping @Sendable () -> Container) {
        self.makeContainer = makeContainer
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
        try await withDependencies(makeContainer()) {
            try await function()
        }
    }
}

extension Trait {
    /// Runs each test case with its own container, made by `container`.
    ///
    /// ```swift
    /// @Test(.dependencies(ScopedDependency()))
    /// func workerUsesScopedService() { ... }
    /// ```
    /// - Parameter container: Makes the container; evaluated once per test case.
    /// - Returns: The trait.
    public static func dependencies<Container: InjectableContainer>(
        _ container: @autoclosure @escaping @Sendable () -> Container
    ) -> Self where Self == DependencyTrait<Container> {
        DependencyTrait(container)
    }
}
