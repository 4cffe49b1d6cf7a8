// `public import`, not `internal`: the loads are `@inlinable` so that a read of the container in a
// client module compiles to plain loads instead of calls into this module.
public import _DependencyKitShims

/// One machine word read and written with C11 atomics.
///
/// The hot path reads the installed container and the live-scope count through this type, so it
/// must never lock. `Synchronization.Atomic` would do, but needs macOS 15 / iOS 18.
///
/// `@unchecked Sendable` is sound here: the word lives at a stable heap address owned by this
/// object and is only ever touched through the atomic functions below.
@usableFromInline
package final class AtomicWord: @unchecked Sendable {
    @usableFromInline
    let word: UnsafeMutablePointer<Int>

    /// - Parameters:
    ///   - initialValue: The word's value.
    ///   - spareWords: How many more words, `0` until written, follow it in the same allocation.
    package init(_ initialValue: Int = 0, spareWords: Int = 1) {
        // At least one spare word: the allocator's smallest block holds two words (glibc's holds
        // three), and a container keeps its conversions in the first spare word and its scoped
        // instances in the second (see RuntimeShortcuts.swift and SharedInstances.swift), so that
        // they need no allocation of their own.
        word = .allocate(capacity: 1 + spareWords)
        word.initialize(to: initialValue)
        (word + 1).initialize(repeating: 0, count: spareWords)
    }

    deinit {
        // The words are trivial: deallocating needs no count.
        word.deallocate()
    }

    /// Loads with acquire ordering: everything written before the matching release store is visible.
    @inlinable
    package func loadAcquire() -> Int { dk_atomic_load_acquire(word) }

    /// Loads with relaxed ordering: only the value itself is guaranteed.
    @inlinable
    package func loadRelaxed() -> Int { dk_atomic_load_relaxed(word) }

    /// Stores with release ordering.
    package func storeRelease(_ value: Int) { dk_atomic_store_release(word, value) }

    /// Adds `delta` and returns the previous value.
    @discardableResult
    package func add(_ delta: Int) -> Int { dk_atomic_fetch_add(word, delta) }
}

/// Serial numbers that never repeat in a process: 64 bits on every platform, so none comes round.
///
/// What outlives an object and must tell it from a later one (an `@Inject` holder and the container
/// and override scope its value came from) keeps its serial instead of a reference: a freed object's
/// address may be reused, its serial is not, and keeping a number keeps nothing alive.
package enum SerialNumber {
    #if _pointerBitWidth(_64)
        private static let last = AtomicWord(0)

        /// A serial number no other call has returned, never `0`.
        package static func next() -> UInt64 { UInt64(last.add(1) + 1) }
    #else
        private static let last = Locked<UInt64>(0)

        /// A serial number no other call has returned, never `0`.
        package static func next() -> UInt64 {
            last.withLock {
                $0 += 1
                return $0
            }
        }
    #endif
}
