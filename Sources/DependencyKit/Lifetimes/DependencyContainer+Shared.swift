extension DependencyContainer {
    /// Returns one instance per container, created the first time this resolve is called.
    ///
    /// Resolves return fresh values by default. Wrap the construction in `shared` when a
    /// dependency must be one instance for the whole graph — a session store, a cache, anything
    /// that owns a connection:
    ///
    /// ```swift
    /// open func resolveSessionStore() -> any SessionStoring {
    ///     shared { SessionStore() }
    /// }
    /// ```
    ///
    /// - **Once, thread-safe.** If many threads ask first at the same moment, one creates and
    ///   the others wait for its instance. No lock is held while `make` runs, so `make` may
    ///   resolve other shared dependencies of the same container.
    /// - **Per container.** A new container — a subclass installed at launch, a test's scoped
    ///   container — starts with no instances; its instances live as long as it does.
    /// - **Keyed by call site and type.** The instance belongs to this line of code, so two
    ///   resolves returning the same type never share by accident, and no string key can be
    ///   mistyped. A subclass that overrides the resolve with its own `shared { … }` gets its
    ///   own instance. A helper that wraps `shared` should forward its caller's `fileID`, `line`
    ///   and `column`, or every caller of the helper shares one instance.
    /// - **Failures are not cached.** If `make` throws, the next call tries again.
    /// - **Override scopes own theirs.** Resolved inside an override scope (a test's
    ///   `.override(…)`, a per-request `withOverrides`), the instance is the scope's, built there
    ///   and released with it. An instance that must be the app's in every scope — a server's
    ///   store under per-request values — is ``appShared(_:fileID:line:column:_:)``. When one
    ///   container builds the same instance in 8 override scopes, a warning naming it goes to
    ///   standard error, once.
    /// - **Cycles stop.** If `make` asks, on the same thread, for the very instance it is
    ///   creating, the process stops with a message naming it, rather than hanging. So does a
    ///   race in which two threads each create an instance that needs the other's.
    /// - **Slow is not a deadlock.** A creation takes as long as it takes; the others wait. If
    ///   `make` hands work synchronously to another thread that asks for the same instance
    ///   (`DispatchQueue.main.sync { resolveX() }` inside `resolveX`'s creation), each thread
    ///   waits for the other, and no cell can tell that from a slow creation. A thread that has
    ///   waited 30 seconds for one creation writes a message to standard error naming the
    ///   instance, the container class and the likely fix, and goes on waiting.
    ///
    /// - Parameters:
    ///   - name: The resolve's name in diagnostics; the calling function by default.
    ///   - fileID: Part of the key; leave the default.
    ///   - line: Part of the key; leave the default.
    ///   - column: Part of the key; leave the default.
    ///   - make: Creates the instance. Runs at most once per container unless it throws.
    /// - Returns: This container's instance.
    @inlinable
    public func shared<T: Sendable>(
        _ name: String = #function,
        fileID: String = #fileID,
        line: UInt = #line,
        column: UInt = #column,
        @ResolveBuilder<T> _ make: () throws -> T
    ) rethrows -> T {
        let key = SharedKey(fileID: fileID, line: line, column: column, type: T.self, kind: .strong)
        return try withCachedResolution(name, of: T.self, lifetime: .shared, container: self) { diagnosed in
            if diagnosed, _slowPath(DiagnosticsWord.mayHaveOverrideSets), let owned = instancesOwnedByScope() {
                return try owned.table.cell(for: key) { OnceCell<T>() }
                    .value(describedBy: { Self.describe(T.self, name: name, key: key) }) {
                        ScopeRebuilds.countBuild(key, name: name, type: T.self, of: self)
                        return try make()
                    }
            }
            return try sharedInstances.cell(for: key) { OnceCell<T>() }
                .value(describedBy: { Self.describe(T.self, name: name, key: key) }, make: make)
        }
    }

    /// Returns the container's instance while something else holds it, creating a new one when
    /// the last holder has let go.
    ///
    /// Use it for a dependency that is expensive while in use but should not outlive its
    /// users — a screen's model shared by the views on screen, an open document:
    ///
    /// ```swift
    /// open func resolveEditorSession() -> any EditorSession {
    ///     weakShared { LiveEditorSession(store: resolveDocumentStore()) }
    /// }
    /// ```
    ///
    /// Everything said for ``shared(_:fileID:line:column:_:)`` holds, but the container keeps
    /// only a weak reference. The instance must be a class instance (a protocol existential
    /// holding one is fine); a value type cannot be held weakly, and returning one stops the
    /// process with a message, since it would otherwise be recreated on every call.
    ///
    /// - Parameters:
    ///   - name: The resolve's name in diagnostics; the calling function by default.
    ///   - fileID: Part of the key; leave the default.
    ///   - line: Part of the key; leave the default.
    ///   - column: Part of the key; leave the default.
    ///   - make: Creates the instance when none is alive.
    /// - Returns: The live instance, or a new one.
    @inlinable
    public func weakShared<T: Sendable>(
        _ name: String = #function,
        fileID: String = #fileID,
        line: UInt = #line,
        column: UInt = #column,
        @ResolveBuilder<T> _ make: () throws -> T
    ) rethrows -> T {
        let key = SharedKey(fileID: fileID, line: line, column: column, type: T.self, kind: .weak)
        return try withCachedResolution(name, of: T.self, lifetime: .weakShared, container: self) { diagnosed in
            let owned = diagnosed && DiagnosticsWord.mayHaveOverrideSets ? instancesOwnedByScope() : nil
            return try (owned?.table ?? sharedInstances).cell(for: key) { OnceCell<WeakReference>() }.value(
                describedBy: { Self.describe(T.self, name: name, key: key) },
                read: { $0.object as? T },
                make: {
                    let instance = try make()
                    let message = "weakShared needs a class instance, but \(name) returned a value of type "
                    return (WeakReference(holding: instance, orStop: message), instance)
                }
            )
        }
    }

    /// Returns one instance per container, created asynchronously the first time this resolve
    /// is called.
    ///
    /// The `async` form of ``shared(_:fileID:line:column:_:)``, for an instance whose creation
    /// awaits (opening a database, loading a model):
    ///
    /// ```swift
    /// open func resolveDatabase() async throws -> Database {
    ///     try await shared { try await Database.open(at: resolveDatabaseURL()) }
    /// }
    /// ```
    ///
    /// Callers that arrive while the instance is being created suspend until it is ready; they
    /// never block a thread. A request for the same instance from the creating task or one of
    /// its child tasks is a cycle and stops the process with a message naming it. An
    /// unstructured `Task {}` started by `make` inherits that context, so it must not ask for
    /// the instance being created either.
    ///
    /// - **Cancellation.** A caller whose task is cancelled while it waits for another caller's
    ///   creation stops waiting and throws `CancellationError`, if `make` throws `any Error` (a
    ///   non-throwing `make` has no way to report it, so its callers wait). The creation goes on;
    ///   cancelling the creating task is up to `make`.
    /// - **Slow is not a deadlock.** A creation takes as long as it takes (a slow server behind
    ///   an `async` client); the callers wait, and stay cancellable. A creation that awaits a
    ///   `Task.detached` asking for the same instance would wait for a caller that waits for it;
    ///   such a task does not inherit the creation's context, so it cannot be told from a slow
    ///   creation. A caller that has waited 30 seconds for one creation writes a message to
    ///   standard error naming the instance, the container class and the likely fix, and goes on
    ///   waiting.
    ///
    /// - Parameters:
    ///   - name: The resolve's name in diagnostics; the calling function by default.
    ///   - fileID: Part of the key; leave the default.
    ///   - line: Part of the key; leave the default.
    ///   - column: Part of the key; leave the default.
    ///   - isolation: The caller's isolation, inherited by `make`.
    ///   - make: Creates the instance. Runs at most once per container unless it throws.
    /// - Returns: This container's instance.
    /// - Throws: What `make` throws, when this call created the instance; `CancellationError` when
    ///   this call's task was cancelled while it waited for another call's creation (only if
    ///   `Failure` is `any Error`).
    public func shared<T: Sendable, Failure: Error>(
        _ name: String = #function,
        fileID: String = #fileID,
        line: UInt = #line,
        column: UInt = #column,
        isolation: isolated (any Actor)? = #isolation,
        @ResolveBuilder<T> _ make: () async throws(Failure) -> T
    ) async throws(Failure) -> T {
        try await sharedInstance(
            name, key: SharedKey(fileID: fileID, line: line, column: column, type: T.self, kind: .async),
            masked: false, isolation: isolation, make)
    }

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
        try await sharedInstance(
            name, key: SharedKey(fileID: fileID, line: line, column: column, type: T.self, kind: .async),
            masked: true, isolation: isolation, make)
    }

    /// The one `async` builder of `shared {}` and (`masked`) `appShared {}`: the instance of `key` in
    /// the table the lifetime uses — an override scope's own for `shared {}` inside one, the
    /// container's otherwise — built with every override masked for `appShared {}`.
    ///
    /// The synchronous forms keep bodies of their own: inlined into the caller, a shared builder
    /// costs a `shared {}` hit 3 of its 400 instructions.
    @usableFromInline
    func sharedInstance<T: Sendable, Failure: Error>(
        _ name: String,
        key: SharedKey,
        masked: Bool,
        isolation: isolated (any Actor)?,
        _ make: () async throws(Failure) -> T
    ) async throws(Failure) -> T {
        let lifetime: Diagnostics.Lifetime = masked ? .appShared : .shared
        return try await withResolution(name, of: T.self, lifetime: lifetime, container: self, isolation: isolation) {
            () async throws(Failure) -> T in
            let owned = masked ? nil : instancesOwnedByScope()
            return try await (owned?.table ?? sharedInstances).cell(for: key) { AsyncOnceCell<T>() }.value(
                describedBy: { Self.describe(T.self, name: name, key: key) },
                isolation: isolation
            ) { () async throws(Failure) -> T in
                if masked { return try await buildingWithOverridesMasked(isolation: isolation, make) }
                if owned != nil { ScopeRebuilds.countBuild(key, name: name, type: T.self, of: self) }
                return try await make()
            }
        }
    }

    @usableFromInline
    static func describe(_ type: Any.Type, name: String, key: SharedKey, as lifetime: String = "shared") -> String {
        "the \(lifetime) \(type) of \(name) (\(key)) in \(Self.self)"
    }
}
