// `public import`: the hit path of a scoped instance is `@inlinable`, so its atomics are inlined
// into client modules.
public import _DependencyKitShims

/// One container's scoped instances: the slot of each ``Lifetime`` it has used and the cell
/// of each scoped call site in each scope, found without a lock.
///
/// The table is laid out as ``SharedInstances``' — immutable entries in open-addressing slots written
/// once, a new table of twice the capacity when one would be more than half full — with one
/// difference: it frees memory while the container lives. A scope made at run time (one per
/// document, one per tenant) ends when its last ``Lifetime`` value is gone, and the entries of
/// an ended scope — its slot, its cells and the instances they hold — are removed; a table replaced by
/// a newer one is freed too. So a container that sees any number of run-time scopes keeps memory in
/// proportion to the scopes that are alive.
///
/// ## Sweeping ended scopes
///
/// A slot holds its scope's ``Lifetime/Token`` weakly; the token is `nil` once every value of
/// the scope is gone. No resolve or reset can name an ended scope again, so nothing can ask for its
/// entries. An insertion that finds the table holding twice the entries it kept at the last sweep
/// sweeps: it drops every entry of an ended scope and publishes a table of what is left. The
/// sweep's cost is in proportion to the entries, and the next one comes after as many insertions
/// again, so each insertion pays a constant amortised cost and the entries never exceed twice the
/// live ones (plus a small minimum).
///
/// ## Why a reader never touches freed memory
///
/// A reader does not retain the table or the entries it probes. Instead it counts itself, for the
/// few instructions from loading the newest table to copying an instance out, on one of two
/// counters that an epoch selects — the window ``ScopedCell`` describes. A writer that replaces the
/// table (grown or swept) publishes the new one, then waits until each counter has been seen at `0`
/// (the one the epoch does not select first, then it flips the epoch and waits for the other), and
/// only then frees the old table and the removed entries. The counter updates, the loads of the
/// newest table and the store that publishes it are sequentially consistent, so a reader either
/// finished before the wait saw its counter at `0`, or loads the new table, which holds none of
/// what is freed. A reset of a scope waits for the same counters before it releases the instances it
/// ended. Waits are serialised by their own lock, so the epoch flips of one never keep another
/// waiting, and a reader's window runs no user code, takes no lock and waits for nothing.
///
/// `@unchecked Sendable` is sound here: the words are only touched with the atomics above, at a
/// heap address this object owns; the entries and the newest table are only touched under
/// `published`'s lock, and `drainLock` is a mutex at a stable heap address.
@usableFromInline
package final class ScopeTable: @unchecked Sendable {
    /// `[epoch, readers 0, readers 1, newest table]`; see the type's discussion.
    @usableFromInline
    let words: UnsafeMutablePointer<Int>
    private let published = Locked(Published())
    /// Serialises the readers' drains of sweeps and resets.
    private let drainLock = PlatformLock()

    /// What `published`'s lock guards; it also keeps the entries and the newest table alive.
    private struct Published {
        var entries: [SharedInstances.Entry] = []
        var table: SharedInstances.Table?
        /// How many entries the table may hold before an insertion sweeps.
        var sweepAt = ScopeTable.minimumSweep
    }

    /// The fewest entries a sweep waits for: a container has a handful of static scopes.
    private static var minimumSweep: Int { 64 }

    init() {
        words = .allocate(capacity: 4)
        words.initialize(repeating: 0, count: 4)
    }

    deinit {
        words.deallocate()
    }

    /// Runs `body` inside a readers' window: no table, entry or instance that `body` reaches from
    /// the newest table is freed before it returns. `body` must not run user code, take a lock or
    /// wait for anything.
    ///
    /// Always inlined, with the probe, into a scoped resolve's hit path: two calls cost the hit 16 of
    /// its 311 instructions.
    @inlinable @inline(__always)
    static func window<Result>(_ words: UnsafeMutablePointer<Int>, _ body: () -> Result) -> Result {
        let readers = words + 1 + (dk_atomic_load_acquire(words) & 1)
        dk_atomic_fetch_add_seq_cst(readers, 1)
        defer { dk_atomic_fetch_add_seq_cst(readers, -1) }
        return body()
    }

    /// The entry for `key` in the newest table at `words`, unretained; call inside a readers' window.
    @inlinable @inline(__always)
    static func entry(for key: SharedKey, in words: UnsafeMutablePointer<Int>) -> Unmanaged<SharedInstances.Entry>? {
        let raw = dk_atomic_load_seq_cst(words + 3)
        guard _fastPath(raw != 0) else { return nil }
        return Unmanaged<SharedInstances.Table>.fromOpaque(UnsafeRawPointer(bitPattern: raw).unsafelyUnwrapped)
            ._withUnsafeGuaranteedRef { $0.probe(for: key) }
    }

    /// The instance of the scoped cell for `key` in the table at `address` (``SharedInstances/scopeTableAddress``),
    /// or `nil` when there is no table, no cell or its generation has no instance yet: the hit path of
    /// a scoped resolve, sync and async, which retains neither the table nor the cell (on two threads,
    /// each retain is one more write to a reference count both threads share).
    @inlinable @inline(__always)
    static func instance<Value: Sendable>(inTableAt address: Int, for key: SharedKey, as _: Value.Type) -> Value? {
        guard _fastPath(address != 0) else { return nil }
        let words = Unmanaged<ScopeTable>.fromOpaque(UnsafeRawPointer(bitPattern: address).unsafelyUnwrapped)
            ._withUnsafeGuaranteedRef { $0.words }
        return window(words) {
            guard let entry = entry(for: key, in: words) else { return nil }
            let cell = entry._withUnsafeGuaranteedRef { $0.cellAddress }
            return Unmanaged<ScopedCell<Value>>.fromOpaque(UnsafeRawPointer(bitPattern: cell).unsafelyUnwrapped)
                ._withUnsafeGuaranteedRef { $0.instanceInWindow() }
        }
    }

    /// The cell for `key` if it has been inserted, retained.
    @inlinable
    package func existingCell<Cell: AnyObject & Sendable>(for key: SharedKey, as _: Cell.Type) -> Cell? {
        Self.window(words) {
            Self.entry(for: key, in: words).map { entry in
                unsafeDowncast(entry._withUnsafeGuaranteedRef { $0.cell as AnyObject }, to: Cell.self)
            }
        }
    }

    /// The cell for `key`, found without a lock, or inserting the one `makeCell` returns if there is
    /// none yet (`makeCell` is engine code and runs under the table's lock). An insertion sweeps ended
    /// scopes first when the table has doubled since the last sweep, and publishes a new table when
    /// entries were removed or the newest would be more than half full. The key's type and kind decide
    /// the cell's type, so the downcast cannot fail.
    func cell<Cell: AnyObject & Sendable>(for key: SharedKey, _ makeCell: () -> Cell) -> Cell {
        if let found = existingCell(for: key, as: Cell.self) { return found }
        let (cell, freed) = published.withLock { published -> (any AnyObject & Sendable, [AnyObject]) in
            if let existing = published.table?.cell(for: key) { return (existing, []) }
            var freed = published.entries.count >= published.sweepAt ? Self.sweep(&published) : []
            let entry = SharedInstances.Entry(key: key, cell: makeCell())
            // After a sweep the newest table still points at removed entries: a new one is published.
            let newest = freed.isEmpty ? published.table : nil
            guard let table = SharedInstances.add(entry, to: &published.entries, newest: newest) else {
                return (entry.cell, freed)
            }
            if let old = published.table { freed.append(old) }
            published.table = table
            dk_atomic_exchange_seq_cst(words + 3, Int(bitPattern: Unmanaged.passUnretained(table).toOpaque()))
            // No reader can still hold the old table or a removed entry once this returns.
            drainReaders()
            return (entry.cell, freed)
        }
        // Released here, unlocked: a removed cell releases its instance, whose deinit is user code.
        withExtendedLifetime(freed) {}
        return unsafeDowncast(cell, to: Cell.self)
    }

    /// The slot of `scope`, made on first use.
    func slot(for scope: Lifetime) -> ScopeSlot {
        let key = SharedKey(fileID: "", line: 0, column: 0, type: ScopeSlot.self, kind: .strong, scope: scope.id)
        return cell(for: key) { ScopeSlot(scope: scope, table: self) }
    }

    /// The cell of a scoped call site in `scope`, made on its first resolve: the miss path of
    /// ``DependencyContainer/shared(in:_:fileID:line:column:_:)``, after ``instance(inTableAt:for:as:)``.
    @usableFromInline
    func scopedCell<Value: Sendable>(for key: SharedKey, in scope: Lifetime) -> ScopedCell<Value> {
        // The slot first: the table's lock is not re-entrant, and `makeCell` runs under it.
        let slot = slot(for: scope)
        return cell(for: key) { ScopedCell<Value>(slot: slot) }
    }

    /// Removes the entries of every ended scope; returns them, for the caller to release unlocked.
    private static func sweep(_ published: inout Published) -> [AnyObject] {
        var ended = Set<UInt>()
        for entry in published.entries {
            if let slot = entry.cell as? ScopeSlot, slot.hasEnded { ended.insert(entry.key.scope) }
        }
        let removed: [AnyObject] = published.entries.filter { ended.contains($0.key.scope) }
        published.entries.removeAll { ended.contains($0.key.scope) }
        published.sweepAt = max(minimumSweep, 2 * published.entries.count)
        return removed
    }

    /// Returns once every reader that was inside its window when this was called has left it.
    func drainReaders() {
        drainLock.lock()
        defer { drainLock.unlock() }
        let epoch = dk_atomic_load_relaxed(words)
        Self.drain(words + 1 + ((epoch + 1) & 1))
        dk_atomic_fetch_add_seq_cst(words, 1)
        Self.drain(words + 1 + (epoch & 1))
    }

    private static func drain(_ readers: UnsafeMutablePointer<Int>) {
        while dk_atomic_load_seq_cst(readers) != 0 {
            PlatformLock.yieldProcessor()
        }
    }

    /// How many entries (scope slots and cells) the table holds, and how many slots its newest
    /// table has. For tests of the memory bound.
    package var footprint: (entries: Int, slots: Int) {
        published.withLock { ($0.entries.count, $0.table?.capacity ?? 0) }
    }
}
