extension DependencyContainer {
    /// Returns one instance per top-level resolution: every resolve inside the same outermost
    /// resolve gets the same instance; the next top-level resolve builds a new one.
    ///
    /// Use it for a value two parts of one graph must share while the next graph gets its own —
    /// a screen's model seen by both of the screen's services:
    ///
    /// ```swift
    /// open func resolveDraft() -> Draft { perGraph { Draft() } }
    /// open func resolveEditor() -> Editor { fresh { Editor(draft: resolveDraft(), preview: resolvePreview()) } }
    /// open func resolvePreview() -> Preview { fresh { Preview(draft: resolveDraft()) } }
    /// // resolveEditor(): the editor and its preview hold the same Draft; the next call, a new one.
    /// ```
    ///
    /// - **The graph.** A graph is everything one outermost resolve resolves, through every resolve
    ///   of every container, synchronous or asynchronous: a synchronous graph ends when its outermost
    ///   resolve returns on its thread; an asynchronous one is the outermost `async` resolve and its
    ///   child tasks. The instance is released when its graph ends (unless something holds it).
    /// - **Keyed by call site and type**, like ``shared(_:fileID:line:column:_:)``.
    /// - **Once per graph, thread-safe**: child tasks of one asynchronous graph that ask at the same
    ///   time get one instance. Failures are not cached; a cycle is named.
    /// - **Cost.** A synchronous resolve that never asks for a per-graph instance pays one compare
    ///   on its outermost return. An outermost `async` resolve always binds a graph for its child
    ///   tasks — one small object and a task-local binding, about 1,600 instructions — because a
    ///   child task it starts may ask for a per-graph instance later.
    ///
    /// - Parameters:
    ///   - name: The resolve's name in diagnostics; the calling function by default.
    ///   - fileID: Part of the key; leave the default.
    ///   - line: Part of the key; leave the default.
    ///   - column: Part of the key; leave the default.
    ///   - make: Creates the instance. Runs at most once per graph unless it throws.
    /// - Returns: This graph's instance.
    @inlinable
    public func perGraph<T: Sendable>(
        _ name: String = #function,
        fileID: String = #fileID,
        line: UInt = #line,
        column: UInt = #column,
        @ResolveBuilder<T> _ make: () throws -> T
    ) rethrows -> T {
        let key = SharedKey(fileID: fileID, line: line, column: column, type: T.self, kind: .strong)
        return try withCachedResolution(name, of: T.self, lifetime: .perGraph, container: self) { diagnosed in
            // Inside an override scope, the scope's instances are keyed apart from the container's.
            let owner: AnyObject =
                (diagnosed && DiagnosticsWord.mayHaveOverrideSets ? instancesOwnedByScope() : nil) ?? self
            return try GraphFrame.forCurrentResolution.cell(for: key, in: owner) { OnceCell<T>() }
                .value(describedBy: { Self.describe(T.self, name: name, key: key, as: "per-graph") }, make: make)
        }
    }

    /// Returns one instance per top-level resolution, created asynchronously.
    ///
    /// The `async` form of ``perGraph(_:fileID:line:column:_:)``.
    /// - Parameters:
    ///   - name: The resolve's name in diagnostics; the calling function by default.
    ///   - fileID: Part of the key; leave the default.
    ///   - line: Part of the key; leave the default.
    ///   - column: Part of the key; leave the default.
    ///   - isolation: The caller's isolation, inherited by `make`.
    ///   - make: Creates the instance. Runs at most once per graph unless it throws.
    /// - Returns: This graph's instance.
    /// - Throws: What `make` throws, when this call created the instance; `CancellationError` when
    ///   this call's task was cancelled while it waited for another call's creation (only if
    ///   `Failure` is `any Error`).
    public func perGraph<T: Sendable, Failure: Error>(
        _ name: String = #function,
        fileID: String = #fileID,
        line: UInt = #line,
        column: UInt = #column,
        isolation: isolated (any Actor)? = #isolation,
        @ResolveBuilder<T> _ make: () async throws(Failure) -> T
    ) async throws(Failure) -> T {
        let key = SharedKey(fileID: fileID, line: line, column: column, type: T.self, kind: .async)
        return try await withResolution(name, of: T.self, lifetime: .perGraph, container: self, isolation: isolation) {
            () async throws(Failure) -> T in
            let owner: AnyObject = instancesOwnedByScope() ?? self
            return try await GraphFrame.forCurrentResolution.cell(for: key, in: owner) { AsyncOnceCell<T>() }
                .value(
                    describedBy: { Self.describe(T.self, name: name, key: key, as: "per-graph") }, isolation: isolation,
                    make: make)
        }
    }
}
