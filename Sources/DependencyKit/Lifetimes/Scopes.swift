extension DependencyContainer {
    /// Returns this container's instance in `scope`, created the first time this resolve is called
    /// since the lifetime was last reset.
    ///
    /// ```swift
    /// open func resolveGuestBook() -> GuestBook { shared(in: .visit) { GuestBook() } }
    /// ```
    ///
    /// Everything said for ``shared(_:fileID:line:column:_:)`` holds — once per generation even
    /// when threads race, keyed by call site, failures not cached, cycles named — and:
    ///
    /// - **Reset.** ``reset(_:)`` ends the lifetime's generation: the next call creates a new
    ///   instance. Other lifetimes and `shared {}` instances stay.
    /// - **Racing a reset.** A call that runs while another thread resets gets the old instance or
    ///   the new one, never a half-made one; each generation's instance is created at most once.
    /// - **Old holders.** Code that resolved the instance before a reset keeps a working object;
    ///   the container just stops handing it out. It is freed when its last holder lets go.
    /// - **Per container.** Lifetimes live in the container: a new container — a subclass installed
    ///   at launch, a test's scoped container — starts with every lifetime empty, and resetting a
    ///   lifetime in one container never touches another's.
    ///
    /// - Parameters:
    ///   - scope: The lifetime that holds the instance.
    ///   - name: The resolve's name in diagnostics; the calling function by default.
    ///   - fileID: Part of the key; leave the default.
    ///   - line: Part of the key; leave the default.
    ///   - column: Part of the key; leave the default.
    ///   - make: Creates the instance. Runs at most once per lifetime generation unless it throws.
    /// - Returns: The instance of the lifetime's current generation.
    @inlinable
    public func shared<T: Sendable>(
        in scope: Lifetime,
        _ name: String = #function,
        fileID: String = #fileID,
        line: UInt = #line,
        column: UInt = #column,
        @ResolveBuilder<T> _ make: () throws -> T
    ) rethrows -> T {
        let key = SharedKey(fileID: fileID, line: line, column: column, type: T.self, kind: .scoped, scope: scope.id)
        return try withCachedResolution(name, of: T.self, lifetime: .scoped, container: self) { diagnosed in
            if diagnosed, _slowPath(DiagnosticsWord.mayHaveOverrideSets), let owned = instancesOwnedByScope() {
                return try scopedInstance(name, key: key, in: scope, of: owned.table, make)
            }
            return try scopedInstance(name, key: key, in: scope, of: sharedInstances, make)
        }
    }

    /// The instance of `key` in `scope` in `instances`: found without a lock (the hit path of
    /// ``shared(in:_:fileID:line:column:_:)``), or created in the scope's current generation.
    @inlinable @inline(__always)
    func scopedInstance<T: Sendable>(
        _ name: String,
        key: SharedKey,
        in scope: Lifetime,
        of instances: SharedInstances,
        _ make: () throws -> T
    ) rethrows -> T {
        if let instance = ScopeTable.instance(inTableAt: instances.scopeTableAddress, for: key, as: T.self) {
            return instance
        }
        let cell: ScopedCell<T> = instances.scopeTable().scopedCell(for: key, in: scope)
        return try cell.create(
            describedBy: { Self.describe(T.self, name: name, scope: scope, generation: $0) }, make: make)
    }

    /// Returns this container's instance in `scope`, created asynchronously the first time this
    /// resolve is called since the lifetime was last reset.
    ///
    /// The `async` form of ``shared(in:_:fileID:line:column:_:)``; waiting callers suspend as for
    /// the `async` `shared {}`.
    /// - Parameters:
    ///   - scope: The lifetime that holds the instance.
    ///   - name: The resolve's name in diagnostics; the calling function by default.
    ///   - fileID: Part of the key; leave the default.
    ///   - line: Part of the key; leave the default.
    ///   - column: Part of the key; leave the default.
    ///   - isolation: The caller's isolation, inherited by `make`.
    ///   - make: Creates the instance. Runs at most once per lifetime generation unless it throws.
    /// - Returns: The instance of the lifetime's current generation.
    /// - Throws: What `make` throws, when this call created the instance; `CancellationError` when
    ///   this call's task was cancelled while it waited for another call's creation (only if
    ///   `Failure` is `any Error`).
    public func shared<T: Sendable, Failure: Error>(
        in scope: Lifetime,
        _ name: String = #function,
        fileID: String = #fileID,
        line: UInt = #line,
        column: UInt = #column,
        isolation: isolated (any Actor)? = #isolation,
        @ResolveBuilder<T> _ make: () async throws(Failure) -> T
    ) async throws(Failure) -> T {
        let key = SharedKey(
            fileID: fileID, line: line, column: column, type: T.self, kind: .scopedAsync, scope: scope.id)
        return try await withResolution(name, of: T.self, lifetime: .scoped, container: self, isolation: isolation) {
            () async throws(Failure) -> T in
            let instances = instancesOwnedByScope()?.table ?? sharedInstances
            if let instance = ScopeTable.instance(inTableAt: instances.scopeTableAddress, for: key, as: T.self) {
                return instance
            }
            let cell: ScopedCell<T> = instances.scopeTable().scopedCell(for: key, in: scope)
            return try await cell.create(
                describedBy: { Self.describe(T.self, name: name, scope: scope, generation: $0) },
                isolation: isolation,
                make: make
            )
        }
    }

    /// Ends `scope`'s current generation in this container: the next resolve of each instance the
    /// lifetime holds creates a new one.
    ///
    /// Instances in other lifetimes, `shared {}` instances and other containers' lifetimes are not
    /// touched. Code that already holds an instance keeps it; it is freed when the last holder lets
    /// go. Safe to call from any thread while other threads resolve: each resolve gets the
    /// instance of the generation before or after the reset. A resolve that finds its instance
    /// takes no lock; the reset instead waits, before it releases the old instances, for resolves
    /// that are in the middle of reading one (a few instructions each, never user code). The old
    /// instances are released after the lifetime's lock is let go, so their deinits may resolve and
    /// reset.
    ///
    /// ```swift
    /// func signOut() {
    ///     container.reset(.visit)
    /// }
    /// ```
    /// - Parameter scope: The lifetime to reset.
    public func reset(_ scope: Lifetime) {
        let ended = (instancesOwnedByScope()?.table ?? sharedInstances).scopeTable().slot(for: scope).advance()
        // Released here, unlocked: the last reference to an instance runs its deinit.
        withExtendedLifetime(ended) {}
    }

    /// How many times `scope` has been reset in this container.
    /// - Parameter scope: A lifetime.
    /// - Returns: `0` until the first ``reset(_:)``.
    public func generation(of scope: Lifetime) -> Int {
        (instancesOwnedByScope()?.table ?? sharedInstances).scopeTable().slot(for: scope).generation
    }

    @usableFromInline
    static func describe(
        _ type: Any.Type,
        name: String,
        scope: Lifetime,
        generation: Int
    ) -> String {
        "the \(type) of \(name) in scope \(scope) (generation \(generation)) of \(Self.self)"
    }
}
