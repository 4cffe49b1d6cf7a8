// `public import`: a read of an injector's global container is inlined into client modules, and
// protects the box it reads through these functions.
public import _DependencyKitShims

/// The calling thread's hazard slot: how a reader keeps the box it borrows from being freed while it
/// reads it (the C side is in `_DependencyKitShims.h`, "Hazard slots").
///
/// A reader announces the word it loads a box from with ``protect(_:)``, reads the box, and ends
/// with ``clear()``; a writer that replaced the word's box frees it only when ``isAnnounced(_:)``
/// says no thread announces the word. One slot per thread, so a thread protects one read at a time:
/// nothing between ``protect(_:)`` and ``clear()`` may read an injector. Why no reader touches freed
/// memory: ``Injector/global``.
@usableFromInline
package struct HazardSlot {
    @usableFromInline
    let slot: UnsafeMutablePointer<dk_hazard_slot>

    /// The calling thread's slot, claimed on its first read.
    @inlinable
    @inline(__always)
    package init() { slot = dk_hazard_slot_get() }

    /// Announces `word`, then returns the value it holds; what that points at is not freed before
    /// ``clear()``.
    @inlinable
    @inline(__always)
    package func protect(_ word: UnsafeMutablePointer<Int>) -> Int { dk_hazard_protect(slot, word) }

    /// Ends the protection ``protect(_:)`` began.
    @inlinable
    @inline(__always)
    package func clear() { dk_hazard_clear(slot) }

    /// Whether some thread's slot announces `word`; a writer asks after replacing the box it held.
    package static func isAnnounced(_ word: UnsafeMutablePointer<Int>) -> Bool { dk_hazard_is_announced(word) }

    /// How many slots exist: the most threads alive at once that had read (a thread that exits gives
    /// its slot back for the next).
    package static var count: Int { dk_hazard_slot_count() }
}

extension AtomicWord {
    /// Replaces the word's value, sequentially consistent, and returns the previous one.
    package func exchange(_ value: Int) -> Int { dk_atomic_exchange_seq_cst(word, value) }

    /// Loads the word after `word` (an atomic word's first spare word) with relaxed ordering.
    @inlinable
    package static func loadSpareRelaxed(after word: UnsafeMutablePointer<Int>) -> Int {
        dk_atomic_load_relaxed(word + 1)
    }

    /// Stores `value` in the word after this one (the first spare word) with release ordering.
    package func storeSpareRelease(_ value: Int) { dk_atomic_store_release(word + 1, value) }
}
