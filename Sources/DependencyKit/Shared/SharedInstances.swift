/// The table of one container's shared instances: one creation cell per ``SharedKey``.
///
/// The table's lock is held only to find or insert a cell, never while an instance is created;
/// creation and waiting happen on the cell itself, so a shared resolve that resolves another
/// shared dependency of the same container neither deadlocks nor traps. Cells are never
/// removed: they live, with their instances, as long as the container.
@usableFromInline
package struct SharedInstances: Sendable {
    private let cells = Locked<[SharedKey: any AnyObject & Sendable]>([:])

    package init() {}

    /// The cell for `key`, inserting the one `makeCell` returns if there is none yet.
    ///
    /// `makeCell` is engine code (it allocates an empty cell), so running it under the lock is
    /// fine. The key's type and kind decide the cell's type, so the downcast cannot fail.
    @usableFromInline
    package func cell<Cell: AnyObject & Sendable>(for key: SharedKey, _ makeCell: () -> Cell) -> Cell {
        let cell = cells.withLock { cells in
            if let existing = cells[key] { return existing }
            let created = makeCell()
            cells[key] = created
            return created
        }
        return unsafeDowncast(cell, to: Cell.self)
    }
}
