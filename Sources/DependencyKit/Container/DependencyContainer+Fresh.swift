extension DependencyContainer {
    /// Builds a fresh value inside a resolve method, visible to cycle detection and tracing.
    ///
    /// Returning a value directly from a resolve works too; wrapping its construction in
    /// `fresh` lets the diagnostics name this resolve in a cycle report and a resolution graph.
    ///
    /// ```swift
    /// open func resolveUsersWorker() -> any UsersWorkerType {
    ///     fresh { UsersWorker(store: resolveUsersStore(), cacheStore: resolveUsersCache()) }
    /// }
    /// ```
    /// - Parameters:
    ///   - name: The resolve's name in diagnostics; the calling function by default.
    ///   - make: Builds the value.
    /// - Returns: What `make` returns.
    @inlinable
    public func fresh<T>(_ name: String = #function, _ make: () throws -> T) rethrows -> T {
        try withResolution(name, of: T.self, lifetime: .fresh, container: self, make)
    }

    /// Builds a fresh value asynchronously inside an `async` resolve method.
    ///
    /// See ``fresh(_:_:)-(_,()->T)``.
    /// - Parameters:
    ///   - name: The resolve's name in diagnostics; the calling function by default.
    ///   - isolation: The caller's isolation, inherited by `make`.
    ///   - make: Builds the value.
    /// - Returns: What `make` returns.
    @inlinable
    public func fresh<T>(
        _ name: String = #function,
        isolation: isolated (any Actor)? = #isolation,
        _ make: () async throws -> T
    ) async rethrows -> T {
        try await withResolution(name, of: T.self, lifetime: .fresh, container: self, isolation: isolation, make)
    }
}
