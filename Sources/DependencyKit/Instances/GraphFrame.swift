// `public import`: whether a graph has ended is read by the inlinable asynchronous resolution hook.
public import _DependencyKitShims

/// The per-graph instances of one top-level resolution: one creation cell per call site.
///
/// A synchronous top-level resolution gets its frame lazily — the first `perGraph {}` inside it
/// makes one and parks it, retained, in a thread-local slot that the outermost resolution's exit
/// releases — so resolutions that never ask for a per-graph instance pay one compare. Only its
/// thread ever sees that frame, so its cells take no lock. An asynchronous top-level resolution,
/// whose work may move between threads, binds a frame in a task-local instead; synchronous
/// resolutions inside it find that frame first. When that resolution returns, the frame ends: an
/// unstructured task started inside it inherits the binding but sees no frame, so its later
/// resolutions start graphs of their own, and the ended frame lets go of its instances.
///
/// A frame that tasks share keeps two words at a heap address of their own, read and written
/// only with C11 atomics: whether the frame has ended, and its cells behind the module's lock
/// (``Locked``), made by the first `perGraph {}` that needs them. An outermost `async` resolve that
/// asks for no per-graph instance so pays for no lock.
///
/// `@unchecked Sendable` is sound here: `cells`, the only mutable state, is only used by a confined
/// frame, on the thread that made it (or in `deinit`, when no other reference exists); the words are
/// only touched with atomics.
@usableFromInline
package final class GraphFrame: @unchecked Sendable {
    /// The frame bound by the outermost asynchronous resolution of the current task, or ``none``.
    @TaskLocal
    package static var current = GraphFrame.none

    /// ``current``'s task-local, for inlinable code.
    @usableFromInline
    static var currentLocal: TaskLocal<GraphFrame> { $current }

    /// What ``current`` holds outside every asynchronous top-level resolution: a frame that has ended.
    @usableFromInline
    static let none: GraphFrame = {
        let frame = GraphFrame(confined: false)
        frame.words.map { dk_atomic_store_release($0, 1) }
        return frame
    }()

    /// One call site in one container: a graph spans containers, and each has its own instances.
    ///
    /// The container is held weakly and compared by reference, not by `ObjectIdentifier`: a
    /// container freed inside the graph and a new one allocated at the same address must not
    /// share instances. A dead container's reference reads `nil` and matches nothing.
    private struct Entry {
        let site: SharedKey
        weak var container: AnyObject?
        let cell: any AnyObject & Sendable
    }

    /// A confined frame's cells (a shared frame's are in ``sharedCells``).
    ///
    /// A list, searched from the front: a graph holds a handful of per-graph instances, and
    /// comparing call sites costs less than hashing them.
    private var cells: [Entry] = []

    /// `[ended, cells]` for a frame tasks share (`ended` is `1` once the resolution that bound the
    /// frame has returned; `cells` is a retained `Locked<[Entry]>` or `0`); `nil` for a confined frame.
    @usableFromInline
    let words: UnsafeMutablePointer<Int>?

    /// Makes a frame; a `confined` one is only ever used on the calling thread.
    @usableFromInline
    package init(confined: Bool) {
        if confined {
            words = nil
        } else {
            let words = UnsafeMutablePointer<Int>.allocate(capacity: 2)
            words.initialize(repeating: 0, count: 2)
            self.words = words
        }
    }

    deinit {
        guard let words else { return }
        let shared = dk_atomic_load_acquire(words + 1)
        if shared != 0 { Self.sharedCells(at: shared).release() }
        words.deallocate()
    }

    /// Whether the current task runs inside an asynchronous top-level resolution's frame that has
    /// not ended.
    ///
    /// Read on every asynchronous resolve, so it borrows the task-local's stored reference
    /// instead of copying it out through `TaskLocal.get()`.
    @inlinable
    static var isBound: Bool {
        guard let raw = borrowedTaskLocalObject(currentLocal, key: currentKey, unbound: none) else { return false }
        return !Unmanaged<GraphFrame>.fromOpaque(raw).takeUnretainedValue().hasEnded
    }

    /// The key ``current`` is stored under.
    @usableFromInline
    static let currentKey = taskLocalKey($current)

    /// Whether the asynchronous resolution that bound this frame has returned.
    @inlinable
    var hasEnded: Bool { words.map { dk_atomic_load_acquire($0) != 0 } ?? false }

    /// Ends the frame when the asynchronous resolution that bound it returns: tasks that inherited
    /// the binding no longer see it, and its instances are released (outside the lock: their
    /// deinits may resolve).
    @usableFromInline
    func end() {
        guard let words, let sharedCells else { return }
        dk_atomic_store_release(words, 1)
        let released = sharedCells.withLock { cells in
            defer { cells = [] }
            return cells
        }
        withExtendedLifetime(released) {}
    }

    /// The cell for `site` in `container`, inserting the one `makeCell` returns if there is none yet.
    @usableFromInline
    func cell<Cell: AnyObject & Sendable>(
        for site: SharedKey,
        in container: AnyObject,
        _ makeCell: () -> Cell
    ) -> Cell {
        func findOrInsert(in cells: inout [Entry]) -> any AnyObject & Sendable {
            if let existing = cells.first(where: { $0.site.matches(site) && $0.container === container }) {
                return existing.cell
            }
            let made = makeCell()
            cells.append(Entry(site: site, container: container, cell: made))
            return made
        }
        let cell = sharedCells?.withLock(findOrInsert) ?? findOrInsert(in: &cells)
        return unsafeDowncast(cell, to: Cell.self)
    }

    /// A shared frame's cells, behind their lock, made on first use; `nil` for a confined frame.
    private var sharedCells: Locked<[Entry]>? {
        guard let words else { return nil }
        var existing = dk_atomic_load_acquire(words + 1)
        if existing != 0 { return Self.sharedCells(at: existing).takeUnretainedValue() }
        let made = Unmanaged.passRetained(Locked<[Entry]>([]))
        if dk_atomic_compare_exchange(words + 1, &existing, Int(bitPattern: made.toOpaque())) {
            return made.takeUnretainedValue()
        }
        made.release()
        return Self.sharedCells(at: existing).takeUnretainedValue()
    }

    private static func sharedCells(at word: Int) -> Unmanaged<Locked<[Entry]>> {
        Unmanaged<Locked<[Entry]>>.fromOpaque(UnsafeRawPointer(bitPattern: word).unsafelyUnwrapped)
    }

    /// The graph of the resolution running in the current task or on this thread, made on first use.
    ///
    /// Call only inside a resolution: the thread's graph lives until the outermost synchronous
    /// resolution on this thread returns. A task-local frame that has ended is no frame.
    @usableFromInline
    static var forCurrentResolution: GraphFrame {
        let bound = current
        if !bound.hasEnded { return bound }
        if let raw = dk_graph_record_get() {
            return Unmanaged<GraphFrame>.fromOpaque(raw).takeUnretainedValue()
        }
        let frame = GraphFrame(confined: true)
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
    var frame = GraphFrame(confined: false)
    // Only a frame an unstructured task still holds needs ending; otherwise it dies here.
    defer { if !isKnownUniquelyReferenced(&frame) { frame.end() } }
    return try await GraphFrame.currentLocal.outcome(binding: frame, isolation: isolation, body).get()
}
