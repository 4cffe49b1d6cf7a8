extension DependencyContainer {
    /// Returns one instance per container that no override scope owns: the app's store, pool, cache or
    /// client, the same in every scope of the container.
    ///
    /// `shared {}` instances resolved inside an override scope belong to that scope (Writing Tests →
    /// "What an override promises"), so a per-request override on a long-lived container would give each
    /// request an empty store of its own. Declare the instances that are the app's with `appShared`, and a
    /// per-request value is one line away:
    ///
    /// ```swift
    /// open func resolveNoteStore() -> NoteStore { appShared { NoteStore() } }
    ///
    /// // In a middleware, per request:
    /// try await injector.withOverrides(.override({ $0.resolveRequestID() }, with: id)) {
    ///     try await next(request, context)  // every request writes to the app's one store
    /// }
    /// ```
    ///
    /// Everything said for ``shared(_:fileID:line:column:_:)`` holds — once per container even when
    /// threads race, keyed by call site and type, failures not cached, cycles named — and:
    ///
    /// - **Built with every override masked.** `make` runs as if no override scope were in effect, so
    ///   the instance never captures a scope's value, and the `shared {}` instances it resolves are the
    ///   container's too. It cannot depend on a scope, by construction.
    /// - **Served by the container in every scope.** Inside an override scope the container's instance
    ///   is served, not one of the scope's; nothing is built again per scope.
    /// - **An override of the resolve itself wins.** A test that wants its own instance replaces it:
    ///   `.override({ $0.resolveNoteStore() }, with: NoteStore())`. A new container — a test's scoped
    ///   container — starts with no instances, as for `shared {}`.
    ///
    /// - Parameters:
    ///   - name: The resolve's name in diagnostics; the calling function by default.
    ///   - fileID: Part of the key; leave the default.
    ///   - line: Part of the key; leave the default.
    ///   - column: Part of the key; leave the default.
    ///   - make: Creates the instance, with every override masked. Runs at most once per container
    ///     unless it throws.
    /// - Returns: This container's instance.
    @inlinable
    public func appShared<T: Sendable>(
        _ name: String = #function,
        fileID: String = #fileID,
        line: UInt = #line,
        column: UInt = #column,
        @ResolveBuilder<T> _ make: () throws -> T
    ) rethrows -> T {
        let key = SharedKey(fileID: fileID, line: line, column: column, type: T.self, kind: .strong)
        return try withCachedResolution(name, of: T.self, lifetime: .appShared, container: self) { _ in
            try sharedInstances.cell(for: key) { OnceCell<T>() }
                .value(describedBy: { Self.describe(T.self, name: name, key: key) }) {
                    try buildingWithOverridesMasked(make)
                }
        }
    }

    /// Returns one instance per container that no override scope owns, created asynchronously the
    /// first time this resolve is called.
    ///
    /// The `async` form of ``appShared(_:fileID:line:column:_:)``, for an instance whose creation
    /// awaits (opening a database pool); waiting callers suspend as for the `async` `shared {}`:
    ///
    /// ```swift
    /// open func resolveDatabase() async throws -> Database {
    ///     try await appShared { try await Database.open(at: resolveDatabaseURL()) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The resolve's name in diagnostics; the calling function by default.
    ///   - fileID: Part of the key; leave the default.
    ///   - line: Part of the key; leave the default.
    ///   - column: Part of the key; leave the default.
    ///   - isolation: The caller's isolation, inherited by `make`.
    ///   - make: Creates the instance, with every override masked. Runs at most once per container
    ///     unless it throws.
    /// - Returns: This container's instance.
    /// - Throws: What `make` throws, when this call created the instance; `CancellationError` when
    ///   this call's task was cancelled while it waited for another call's creation (only if
    ///   `Failure` is `any Error`).
    public func appShared<T: Sendable, Failure: Error>(
        _ name: String = #function,
        fileID: String = #fileID,
        line: UInt = #line,
        column: UInt = #column,
        isolation: isolated (any Actor)? = #isolation,
        @ResolveBuilder<T> _ make: () async throws(Failure) -> T
    ) async throws(Failure) -> T {
        let key = SharedKey(fileID: fileID, line: line, column: column, type: T.self, kind: .async)
        do {
            return try await withResolution(
                name,
                of: T.self,
                lifetime: .appShared,
                container: self,
                isolation: isolation
            ) { () async throws -> T in
                try await sharedInstances.cell(for: key) { AsyncOnceCell<T>() }.value(
                    describedBy: { Self.describe(T.self, name: name, key: key) },
                    isolation: isolation
                ) { () async throws(Failure) -> T in
                    try await buildingWithOverridesMasked(isolation: isolation, make)
                }
            }
        } catch {
            // `withResolution` rethrows: the only errors it can throw are its body's, `Failure`s.
            throw error as! Failure
        }
    }
}
