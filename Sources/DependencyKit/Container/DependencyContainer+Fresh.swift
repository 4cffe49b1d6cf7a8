/// What a resolve builds its value with: ``fresh(name:_:)-(_,()->T)`` and
/// ``live(name:_:)-(_,()->T)``.
///
/// ``DependencyContainer`` adopts it, so every container has these methods; you never adopt it
/// yourself. They live in a protocol extension rather than on the class so that each call knows
/// the class whose code made it: a resolve that `EveningDependency` inherits from
/// `CoreGreetingDependency` shows up in traces as inherited, one it overrides as its own.
public protocol DependencyResolving: AnyObject, Sendable {}

extension DependencyResolving {
    /// Builds a fresh value inside a resolve method, visible to cycle detection and tracing.
    ///
    /// Wrap every resolve's body in `fresh` (or ``live(name:_:)-(_,()->T)``,
    /// `shared {}`): a cycle is then named in every build, with this resolve in the chain, and
    /// `Diagnostics.trace` shows it.
    ///
    /// ```swift
    /// open func resolveGreeter() -> any Greeter {
    ///     fresh { TimeOfDayGreeter(clock: resolveClock()) }
    /// }
    /// ```
    /// - Parameters:
    ///   - name: The resolve's name in diagnostics; the calling function by default.
    ///   - make: Builds the value.
    /// - Returns: What `make` returns.
    @inlinable
    public func fresh<T>(name: String = #function, _ make: () throws -> T) rethrows -> T {
        try withResolution(name, of: T.self, lifetime: .fresh, container: self, implementer: Self.self, make)
    }

    /// Builds a fresh value asynchronously inside an `async` resolve method.
    ///
    /// See ``fresh(name:_:)-(_,()->T)``.
    /// - Parameters:
    ///   - name: The resolve's name in diagnostics; the calling function by default.
    ///   - isolation: The caller's isolation, inherited by `make`.
    ///   - make: Builds the value.
    /// - Returns: What `make` returns.
    @inlinable
    public func fresh<T>(
        name: String = #function,
        isolation: isolated (any Actor)? = #isolation,
        _ make: () async throws -> T
    ) async rethrows -> T {
        try await withResolution(
            name,
            of: T.self,
            lifetime: .fresh,
            container: self,
            implementer: Self.self,
            isolation: isolation,
            make
        )
    }

    /// Builds a fresh value that reaches the outside world: the network, the disk, the clock,
    /// randomness.
    ///
    /// In production it is exactly ``fresh(name:_:)-(_,()->T)``. Inside a test guarded by
    /// DependencyKitTesting (the `.dependencies(_:)` trait), serving it with this code — the
    /// production implementation, because the test's container did not override the resolve —
    /// records a test issue naming the resolve, the container and the override to write. Mark
    /// the leaves of your graph with it, and a test can never reach production by accident:
    ///
    /// ```swift
    /// open func resolveClock() -> any Clock { live { SystemClock() } }
    /// ```
    /// - Parameters:
    ///   - name: The resolve's name in diagnostics and test issues; the calling function by
    ///     default.
    ///   - make: Builds the value.
    /// - Returns: What `make` returns.
    @inlinable
    public func live<T>(name: String = #function, _ make: () throws -> T) rethrows -> T {
        try withResolution(name, of: T.self, lifetime: .live, container: self, implementer: Self.self, make)
    }

    /// Builds a fresh value that reaches the outside world, asynchronously.
    ///
    /// See ``live(name:_:)-(_,()->T)``.
    /// - Parameters:
    ///   - name: The resolve's name in diagnostics and test issues; the calling function by
    ///     default.
    ///   - isolation: The caller's isolation, inherited by `make`.
    ///   - make: Builds the value.
    /// - Returns: What `make` returns.
    @inlinable
    public func live<T>(
        name: String = #function,
        isolation: isolated (any Actor)? = #isolation,
        _ make: () async throws -> T
    ) async rethrows -> T {
        try await withResolution(
            name,
            of: T.self,
            lifetime: .live,
            container: self,
            implementer: Self.self,
            isolation: isolation,
            make
        )
    }
}
