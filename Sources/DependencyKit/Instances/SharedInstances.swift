// `public import`: the lookup is `@inlinable`, so its atomic loads are inlined into client modules.
public import _DependencyKitShims

/// The table of one container's shared instances: one creation cell per ``SharedKey``.
///
/// The table's lock is held only to insert a cell, never while an instance is created; creation
/// and waiting happen on the cell itself, so a shared resolve that resolves another shared
/// dependency of the same container neither deadlocks nor traps. Cells are never removed: they
/// live, with their instances, as long as the container. Scoped instances, whose scopes can end
/// before the container, are kept apart, in the container's ``ScopeTable``.
///
/// ## Lock-free lookups, memory linear in call sites
///
/// Finding a cell takes no lock. The cells sit in an open-addressing hash ``Table`` whose slots
/// are machine words, each written at most once — from `0` to a pointer to an immutable
/// ``Entry`` — with a release store, under the insertion lock. A reader loads the newest table
/// with acquire ordering, then probes slots with acquire loads until it finds its key or an
/// empty slot. Why that is sound:
///
/// - **What a reader sees is complete.** An entry is fully initialised before the release store
///   that publishes its slot, and a table (its zeroed slots and every entry copied into it) before
///   the release store that publishes it as the newest; the reader's acquire loads pair with those
///   stores.
/// - **A miss is never wrong for long.** A slot is written once and never cleared, so a reader can
///   only miss a key whose insertion it raced with, or that went into a newer table than the one it
///   loaded. Either way it takes the slow path, which looks again under the lock.
/// - **Nothing a reader holds is freed.** Tables and entries are released only when the container
///   is deinitialised, and every reader is running a resolve of that container, so it holds the
///   container. That is why readers can borrow the table without retaining it.
/// - **Probes end.** A table is never more than half full: there is always an empty slot.
///
/// When an insertion would make the newest table more than half full, a table of twice the
/// capacity is built with every entry and published; older tables stay alive for readers that
/// may still hold them, but no one writes to them again. Capacities double, so all the tables a
/// container ever published hold fewer than twice the slots of the newest, and the newest has at
/// most four slots per call site: memory is linear in the number of call sites (one entry and at
/// most eight words of slots each), and an insertion costs amortised constant time.
@usableFromInline
package struct SharedInstances: Sendable {
    /// One call site's cell and its key. Immutable, so a reader may use it without the lock.
    @usableFromInline
    final class Entry: Sendable {
        @usableFromInline
        let key: SharedKey
        @usableFromInline
        let cell: any AnyObject & Sendable
        /// `cell`'s address, for a caller that borrows the cell: reading the existential would copy
        /// it, a retain and a release.
        @usableFromInline
        let cellAddress: Int

        init(key: SharedKey, cell: any AnyObject & Sendable) {
            self.key = key
            self.cell = cell
            cellAddress = Int(bitPattern: Unmanaged.passUnretained(cell as AnyObject).toOpaque())
        }
    }

    /// A fixed-capacity open-addressing table of unretained ``Entry`` pointers (`0` is empty).
    ///
    /// `@unchecked Sendable` is sound here: the slots live at a stable heap address owned by this
    /// object, are only read with atomic loads once the table is published, and are only written
    /// (once each, with a release store) under ``SharedInstances``' insertion lock.
    @usableFromInline
    final class Table: @unchecked Sendable {
        @usableFromInline
        let mask: Int
        @usableFromInline
        let slots: UnsafeMutablePointer<Int>

        /// - Parameter capacity: A power of two.
        init(capacity: Int) {
            mask = capacity - 1
            slots = .allocate(capacity: capacity)
            slots.initialize(repeating: 0, count: capacity)
        }

        deinit {
            // The slots are trivial: deallocating needs no count.
            slots.deallocate()
        }

        var capacity: Int { mask + 1 }

        @inlinable
        func cell(for key: SharedKey) -> (any AnyObject & Sendable)? {
            probe(for: key)?._withUnsafeGuaranteedRef { $0.cell }
        }

        /// The entry for `key`, unretained, or `nil`: the probe of ``cell(for:)``, always inlined, for a
        /// caller that borrows the cell instead of retaining it (the hit path of a scoped resolve).
        @inlinable @inline(__always)
        func probe(for key: SharedKey) -> Unmanaged<Entry>? {
            var position = key.probeHash & mask
            while true {
                let raw = dk_atomic_load_acquire(slots + position)
                if raw == 0 { return nil }
                let entry = Unmanaged<Entry>.fromOpaque(UnsafeRawPointer(bitPattern: raw).unsafelyUnwrapped)
                if entry._withUnsafeGuaranteedRef({ $0.key.matches(key) }) { return entry }
                position = (position &+ 1) & mask
            }
        }

        /// Publishes `entry` in the first empty slot of its probe sequence. Call with the insertion
        /// lock held, on a table that is less than half full.
        func insert(_ entry: Entry) {
            var position = entry.key.probeHash & mask
            while dk_atomic_load_relaxed(slots + position) != 0 {
                position = (position &+ 1) & mask
            }
            dk_atomic_store_release(slots + position, Int(bitPattern: Unmanaged.passUnretained(entry).toOpaque()))
        }
    }

    /// What the insertion lock guards; it also keeps every entry and table alive.
    private struct Published {
        /// Every entry, in insertion order: the owners of the pointers in the tables' slots.
        var entries: [Entry] = []
        /// Every table published, oldest first: kept alive for readers (see the type's discussion).
        var tables: [Table] = []
        /// The container's scoped instances, once a scope has been used (see ``scopeTable()``).
        var scopes: ScopeTable?
        /// Whether an injector installed the container as its global (see ``wasInstalledAsGlobal``).
        var installedAsGlobal = false
    }

    /// The smallest table; a container has a handful of shared call sites.
    private static var initialCapacity: Int { 16 }

    private let published = Locked(Published())
    /// The newest table as an unretained pointer; `0` until the first cell is inserted. Its second
    /// spare word holds the container's ``ScopeTable``, unretained (`0` until a scope is used).
    @usableFromInline
    let newestTable = AtomicWord(0, spareWords: 2)

    package init() {}

    /// Records that an injector installed the container as its global; it stays so.
    package func markInstalledAsGlobal() {
        published.withLock { $0.installedAsGlobal = true }
    }

    /// Whether an injector installed the container as its global, now or before: the test guard's
    /// question about a container it sees resolve, asked of the container itself so that no other
    /// object is ever taken for it.
    package var wasInstalledAsGlobal: Bool { published.withLock { $0.installedAsGlobal } }

    /// The cell for `key`, found without a lock in the newest table, or inserting the one `makeCell`
    /// returns if there is none yet.
    ///
    /// `makeCell` is engine code (it allocates an empty cell), so running it under the lock is
    /// fine. The key's type and kind decide the cell's type, so the downcast cannot fail. Always
    /// inlined: the lookup is a shared resolve's hit path, and a call would cost it one.
    @inlinable @inline(__always)
    package func cell<Cell: AnyObject & Sendable>(for key: SharedKey, _ makeCell: () -> Cell) -> Cell {
        let raw = newestTable.loadAcquire()
        if _fastPath(raw != 0),
            let found = Unmanaged<Table>.fromOpaque(UnsafeRawPointer(bitPattern: raw).unsafelyUnwrapped)
                ._withUnsafeGuaranteedRef({ $0.cell(for: key) })
        {
            return unsafeDowncast(found, to: Cell.self)
        }
        return unsafeDowncast(insertCell(for: key, makeCell), to: Cell.self)
    }

    /// The slow path of ``cell(for:_:)``: insert the cell, growing the table if it would be more
    /// than half full.
    @usableFromInline
    func insertCell(for key: SharedKey, _ makeCell: () -> any AnyObject & Sendable) -> any AnyObject & Sendable {
        published.withLock { published in
            if let existing = published.tables.last?.cell(for: key) { return existing }
            let entry = Entry(key: key, cell: makeCell())
            if let grown = Self.add(entry, to: &published.entries, newest: published.tables.last) {
                published.tables.append(grown)
                newestTable.storeRelease(Int(bitPattern: Unmanaged.passUnretained(grown).toOpaque()))
            }
            return entry.cell
        }
    }

    /// Appends `entry` to `entries` and publishes it in `newest` if that stays at most half full;
    /// otherwise returns a new table of every entry, of the smallest capacity that is, for the caller
    /// to publish. Call with the insertion lock held.
    static func add(_ entry: Entry, to entries: inout [Entry], newest: Table?) -> Table? {
        entries.append(entry)
        if let newest, entries.count * 2 <= newest.capacity {
            newest.insert(entry)
            return nil
        }
        var capacity = initialCapacity
        while entries.count * 2 > capacity { capacity *= 2 }
        let table = Table(capacity: capacity)
        for existing in entries { table.insert(existing) }
        return table
    }

    /// The address of the container's table of scoped instances, or `0` until a scope is used: a
    /// caller may use the table without retaining it, since the table lives as long as the
    /// container and every caller is running a resolve of that container.
    @inlinable
    package var scopeTableAddress: Int { dk_atomic_load_acquire(newestTable.word + 2) }

    /// The container's table of scoped instances, made on first use.
    @usableFromInline
    package func scopeTable() -> ScopeTable {
        let raw = scopeTableAddress
        if raw != 0 {
            return Unmanaged<ScopeTable>.fromOpaque(UnsafeRawPointer(bitPattern: raw).unsafelyUnwrapped)
                .takeUnretainedValue()
        }
        return published.withLock { published in
            if let existing = published.scopes { return existing }
            let made = ScopeTable()
            published.scopes = made
            dk_atomic_store_release(newestTable.word + 2, Int(bitPattern: Unmanaged.passUnretained(made).toOpaque()))
            return made
        }
    }

    /// How many cells the container holds, and how many table slots it keeps for them across every
    /// table it has published. For tests of the memory bound.
    package var footprint: (cells: Int, slots: Int, tables: Int) {
        published.withLock { published in
            (published.entries.count, published.tables.reduce(0) { $0 + $1.capacity }, published.tables.count)
        }
    }
}

/// What a weakly shared instance's cell stores: the instance, without keeping it alive.
///
/// Only ever holds an instance whose type is `Sendable` (see
/// ``DependencyContainer/weakShared(_:fileID:line:column:_:)``), and is only read under the
/// cell's lock.
@usableFromInline
struct WeakReference {
    @usableFromInline
    weak var object: AnyObject?

    /// A weak reference to `instance`, which must be a class instance: a value would be made again on
    /// every resolve, so any other stops the process with `message` followed by the value's type.
    @usableFromInline
    init(holding instance: Any, orStop message: @autoclosure () -> String) {
        guard type(of: instance) is AnyObject.Type else { fatalError(message() + "\(type(of: instance))") }
        object = instance as AnyObject
    }
}

#if !PublicAPIOnly
    extension SharedInstances {
        /// The head of the container's conversions (see ``ContainerConversions``): `0`, or the
        /// address of the newest block. Kept in the spare word of ``newestTable``, so that a container
        /// costs no allocation for it until it is first converted.
        @inlinable
        package var conversions: UnsafeMutablePointer<Int> { newestTable.word + 1 }
    }
#endif
