/// The table of one container's shared instances: one creation cell per ``SharedKey``.
///
/// The table's lock is held only to insert a cell, never while an instance is created; creation
/// and waiting happen on the cell itself, so a shared resolve that resolves another shared
/// dependency of the same container neither deadlocks nor traps. Cells are never removed: they
/// live, with their instances, as long as the container.
///
/// Finding a cell takes no lock. Each insertion publishes a new immutable ``Table`` (a copy of the
/// previous one plus the new cell) through an atomic word, and readers look the key up in the
/// newest table they load. A reader may still be reading an older table while a new one is
/// published, so every table stays alive as long as the container; a container holds one table
/// per shared call site it has resolved, each no larger than the number of those call sites.
@usableFromInline
package struct SharedInstances: Sendable {
    /// One immutable snapshot of the cells.
    ///
    /// A container has a handful of shared call sites, so a lookup scans them in order, comparing
    /// integers first; that beats hashing the key. Past ``scanLimit`` cells it uses a dictionary.
    @usableFromInline
    final class Table: Sendable {
        @usableFromInline
        static var scanLimit: Int { 16 }

        @usableFromInline
        let keys: [SharedKey]
        @usableFromInline
        let cells: [any AnyObject & Sendable]
        @usableFromInline
        let index: [SharedKey: Int]

        init(keys: [SharedKey], cells: [any AnyObject & Sendable]) {
            self.keys = keys
            self.cells = cells
            index =
                keys.count > Self.scanLimit
                ? Dictionary(uniqueKeysWithValues: zip(keys, keys.indices)) : [:]
        }

        @inlinable
        func cell(for key: SharedKey) -> (any AnyObject & Sendable)? {
            if keys.count > Self.scanLimit {
                return index[key].map { cells[$0] }
            }
            for position in keys.indices where keys[position].matches(key) {
                return cells[position]
            }
            return nil
        }
    }

    /// Every table published, oldest first: kept alive for readers (see the type's discussion).
    private let tables = Locked<[Table]>([])
    /// The newest table as an unretained pointer; `0` until the first cell is inserted.
    @usableFromInline
    let newestTable = AtomicWord(0)

    package init() {}

    /// The cell for `key`, inserting the one `makeCell` returns if there is none yet.
    ///
    /// `makeCell` is engine code (it allocates an empty cell), so running it under the lock is
    /// fine. The key's type and kind decide the cell's type, so the downcast cannot fail.
    @inlinable
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

    /// The slow path of ``cell(for:_:)``: insert the cell and publish a new table.
    @usableFromInline
    func insertCell(for key: SharedKey, _ makeCell: () -> any AnyObject & Sendable) -> any AnyObject & Sendable {
        tables.withLock { tables in
            if let existing = tables.last?.cell(for: key) { return existing }
            let created = makeCell()
            let table = Table(
                keys: (tables.last?.keys ?? []) + [key],
                cells: (tables.last?.cells ?? []) + [created]
            )
            tables.append(table)
            newestTable.storeRelease(Int(bitPattern: Unmanaged.passUnretained(table).toOpaque()))
            return created
        }
    }
}
