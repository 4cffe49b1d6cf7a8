internal import DependencyKitAtomics

/// The per-graph instances of one top-level resolution: one creation cell per call site.
///
/// A synchronous top-level resolution gets its frame lazily — the first `perGraph {}` inside it
/// makes one and parks it, retained, in a thread-local slot that the outermost resolution's exit
/// releases — so resolutions that never ask for a per-graph instance pay one compare. An
/// asynchronous top-level resolution, whose work may move between threads, binds a frame in a
/// task-local instead; synchronous resolutions inside it find that frame first.
///
/// `@unchecked Sendable` is sound here: `cells`, the only mutable state, is read and written only
/// inside `lock`'s `withLock` (or in `deinit`, when no other reference exists); the lock is one of
/// a fixed set that lives as long as the process.
@usableFromInline
package final class GraphFrame: @unchecked Sendable {
    /// The frame bound by the outermost asynchronous resolution of the current task, if any.
    @TaskLocal
    package static var current: GraphFrame?

    /// ``current``'s task-local, for inlinable code.
    @usableFromInline
    static var currentLocal: TaskLocal<GraphFrame?> { $current }

    /// One call site in one container: a graph spans containers, and each has its own instances.
    private struct Entry {
        let site: SharedKey
        let container: ObjectIdentifier
        let cell: any AnyObject & Sendable
    }

    /// This frame's cells; read and written only under ``lock``.
    ///
    /// The frame is made by every outermost asynchronous resolve, so it is one small allocation
    /// with an empty dictionary: the lock that guards it is shared (striped by frame), not made
    /// per frame. A synchronous frame is confined to its thread; an asynchronous one is shared by
    /// the child tasks of its resolve.
    ///
    /// A list, searched from the front: a graph holds a handful of per-graph instances, and
    /// comparing call sites costs less than hashing them.
    private var cells: [Entry] = []

    /// The locks frames share, one picked per frame by its address.
    private static let locks: [Locked<Void>] = (0..<8).map { _ in Locked(()) }

    /// The lock that guards this frame's ``cells``.
    private var lock: Locked<Void> {
        GraphFrame.locks[Int(UInt(bitPattern: ObjectIdentifier(self).hashValue) >> 4 & 7)]
    }

    @usableFromInline
    package init() {}

    /// Whether the current task runs inside an asynchronous top-level resolution's frame.
    ///
    /// Read on every asynchronous resolve, so it borrows the task-local's stored reference
    /// instead of copying it out through `TaskLocal.get()`.
    @inlinable
    static var isBound: Bool { borrowedTaskLocalObject(currentKey) != nil }

    /// The key ``current`` is stored under.
    @usableFromInline
    static let currentKey = taskLocalKey($current)

    /// The cell for `site` in `container`, inserting the one `makeCell` returns if there is none yet.
    @usableFromInline
    func cell<Cell: AnyObject & Sendable>(
        for site: SharedKey,
        in container: AnyObject,
        _ makeCell: () -> Cell
    ) -> Cell {
        let containerID = ObjectIdentifier(container)
        let cell = lock.withLock { _ in
            if let existing = cells.first(where: { $0.container == containerID && $0.site.matches(site) }) {
                return existing.cell
            }
            let made = makeCell()
            cells.append(Entry(site: site, container: containerID, cell: made))
            return made
        }
        return unsafeDowncast(cell, to: Cell.self)
    }

    /// The graph of the resolution running in the current task or on this thread, made on first use.
    ///
    /// Call only inside a resolution: the thread's graph lives until the outermost synchronous
    /// resolution on this thread returns.
    @usableFromInline
    static var forCurrentResolution: GraphFrame {
        if let bound = current { return bound }
        if let raw = dk_graph_record_get() {
            return Unmanaged<GraphFrame>.fromOpaque(raw).takeUnretainedValue()
        }
        let frame = GraphFrame()
        dk_graph_record_set(Unmanaged.passRetained(frame).toOpaque())
        return frame
    }
}

/// Runs an asynchronous top-level resolution inside a graph frame of its own; a nested one runs as
/// it is. Called by the asynchronous resolution hook only.
@inlinable
package func withGraphFrame<T, Failure: Error>(
    isolation: isolated (any Actor)?,
    _ body: () async throws(Failure) -> T
) async throws(Failure) -> T {
    try await GraphFrame.currentLocal.outcome(binding: GraphFrame(), isolation: isolation, body).get()
}

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
        _ make: () throws -> T
    ) rethrows -> T {
        let key = SharedKey(fileID: fileID, line: line, column: column, type: T.self, kind: .strong)
        return try withResolution(name, of: T.self, lifetime: .perGraph, container: self) {
            try GraphFrame.forCurrentResolution.cell(for: key, in: self) { OnceCell<T>() }
                .value(describedBy: { "the per-graph \(T.self) of \(name) (\(key)) in \(Self.self)" }, make: make)
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
        _ make: () async throws(Failure) -> T
    ) async throws(Failure) -> T {
        let key = SharedKey(fileID: fileID, line: line, column: column, type: T.self, kind: .async)
        do {
            return try await withResolution(
                name,
                of: T.self,
                lifetime: .perGraph,
                container: self,
                isolation: isolation
            ) { () async throws -> T in
                let cell = GraphFrame.forCurrentResolution.cell(for: key, in: self) {
                    AsyncOnceCell<T>()
                }
                return try await cell.value(
                    describedBy: { "the per-graph \(T.self) of \(name) (\(key)) in \(Self.self)" },
                    isolation: isolation,
                    make: make
                )
            }
        } catch {
            // `withResolution` rethrows: the only errors it can throw are its body's, `Failure`s.
            throw error as! Failure
        }
    }
}
