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
/// `published`'s lock.
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
        drainLock.destroy()
    }

    /// Runs `body` inside a readers' window: no table, entry or instance that `body` reaches from
    /// the newest table is freed before it returns. `body` must not run user code, take a lock or
    /// wait for anything.
    @inlinable
    static func window<Result>(_ words: UnsafeMutablePointer<Int>, _ body: () -> Result) -> Result {
        let readers = words + 1 + (dk_atomic_load_acquire(words) & 1)
        dk_atomic_fetch_add_seq_cst(readers, 1)
        defer { dk_atomic_fetch_add_seq_cst(readers, -1) }
        return body()
    }

    /// Runs `body` on the cell for `key`, if it has been inserted, inside a readers' window and
    /// without retaining the cell: a scoped hit saves the retain and release of its cell, which on
    /// two threads are two more writes to a reference count both threads share.
    @inlinable
    package func withExistingCell<Cell: AnyObject & Sendable, Result>(
        for key: SharedKey,
        as _: Cell.Type,
        _ body: (Cell) -> Result
    ) -> Result? {
        Self.window(words) {
            let raw = dk_atomic_load_seq_cst(words + 3)
            guard _fastPath(raw != 0),
                let entry = Unmanaged<SharedInstances.Table>.fromOpaque(
                    UnsafeRawPointer(bitPattern: raw).unsafelyUnwrapped
                )._withUnsafeGuaranteedRef({ $0.entry(for: key) })
            else { return nil }
            let address = entry._withUnsafeGuaranteedRef { $0.cellAddress }
            return Unmanaged<Cell>.fromOpaque(UnsafeRawPointer(bitPattern: address).unsafelyUnwrapped)
                ._withUnsafeGuaranteedRef(body)
        }
    }

    /// The instance of the scoped cell for `key` in the table at `address`, or `nil` when there is
    /// no cell or its generation has no instance yet: the hit path of a scoped resolve, one readers'
    /// window written out straight, and inlined with its probe into the resolve: two calls cost
    /// the hit 16 of its 311 instructions.
    @inlinable @inline(__always)
    static func instance<Value: Sendable>(inTableAt address: Int, for key: SharedKey, as _: Value.Type) -> Value? {
        let words = Unmanaged<ScopeTable>.fromOpaque(UnsafeRawPointer(bitPattern: address).unsafelyUnwrapped)
            ._withUnsafeGuaranteedRef { $0.words }
        let readers = words + 1 + (dk_atomic_load_acquire(words) & 1)
        dk_atomic_fetch_add_seq_cst(readers, 1)
        defer { dk_atomic_fetch_add_seq_cst(readers, -1) }
        let raw = dk_atomic_load_seq_cst(words + 3)
        guard _fastPath(raw != 0),
            let entry = Unmanaged<SharedInstances.Table>.fromOpaque(UnsafeRawPointer(bitPattern: raw).unsafelyUnwrapped)
                ._withUnsafeGuaranteedRef({ $0.probe(for: key) })
        else { return nil }
        let cell = entry._withUnsafeGuaranteedRef { $0.cellAddress }
        return Unmanaged<ScopedCell<Value>>.fromOpaque(UnsafeRawPointer(bitPattern: cell).unsafelyUnwrapped)
            ._withUnsafeGuaranteedRef { $0.instanceInWindow() }
    }

    /// The cell for `key` if it has been inserted, retained.
    @inlinable
    package func existingCell<Cell: AnyObject & Sendable>(for key: SharedKey, as _: Cell.Type) -> Cell? {
        withExistingCell(for: key, as: Cell.self) { $0 }
    }

    /// The cell for `key`, inserting the one `makeCell` returns if there is none yet. `makeCell` is
    /// engine code and runs under the table's lock.
    @inlinable
    package func cell<Cell: AnyObject & Sendable>(for key: SharedKey, _ makeCell: () -> Cell) -> Cell {
        if let found = existingCell(for: key, as: Cell.self) { return found }
        return unsafeDowncast(insertCell(for: key, makeCell), to: Cell.self)
    }

    /// The slow path of ``cell(for:_:)``: inserts the cell, sweeping ended scopes first when the
    /// table has doubled since the last sweep, and publishes a new table when entries were removed
    /// or the newest would be more than half full.
    @usableFromInline
    func insertCell(for key: SharedKey, _ makeCell: () -> any AnyObject & Sendable) -> any AnyObject & Sendable {
        let (cell, freed) = published.withLock { published -> (any AnyObject & Sendable, [AnyObject]) in
            if let existing = published.table?.cell(for: key) { return (existing, []) }
            var freed = published.entries.count >= published.sweepAt ? Self.sweep(&published) : []
            let entry = SharedInstances.Entry(key: key, cell: makeCell())
            published.entries.append(entry)
            if freed.isEmpty, let newest = published.table, published.entries.count * 2 <= newest.capacity {
                newest.insert(entry)
                return (entry.cell, freed)
            }
            var capacity = 16
            while published.entries.count * 2 > capacity { capacity *= 2 }
            let table = SharedInstances.Table(capacity: capacity)
            for existing in published.entries { table.insert(existing) }
            if let old = published.table { freed.append(old) }
            published.table = table
            dk_atomic_exchange_seq_cst(words + 3, Int(bitPattern: Unmanaged.passUnretained(table).toOpaque()))
            // No reader can still hold the old table or a removed entry once this returns.
            drainReaders()
            return (entry.cell, freed)
        }
        // Released here, unlocked: a removed cell releases its instance, whose deinit is user code.
        withExtendedLifetime(freed) {}
        return cell
    }

    /// Removes the entries of every ended scope; returns them, for the caller to release unlocked.
    private static func sweep(_ published: inout Published) -> [AnyObject] {
        var ended = Set<UInt>()
        for entry in published.entries {
            if let slot = entry.cell as? ScopeSlot, slot.hasEnded { ended.insert(entry.key.scope) }
        }
        var removed: [AnyObject] = []
        if !ended.isEmpty {
            var kept: [SharedInstances.Entry] = []
            kept.reserveCapacity(published.entries.count - ended.count)
            for entry in published.entries {
                if ended.contains(entry.key.scope) { removed.append(entry) } else { kept.append(entry) }
            }
            published.entries = kept
        }
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

/// A container's slot for one ``Lifetime``: the scope's generation number and every cell
/// that holds an instance in the scope, behind one lock.
///
/// The lock is held to make or publish a generation's instance cell, and by
/// ``DependencyContainer/reset(_:)`` — never while an instance is created, never on a hit, and
/// never while an old instance is released (its deinit is user code). It is taken with
/// ``lock()`` and ``unlock()`` rather than a closure so that the specialised miss path of
/// ``ScopedCell`` calls no generic code.
///
/// `@unchecked Sendable` is sound here for the same reason as ``Locked``: `generation` and
/// `members` are only touched with the mutex held, and the mutex lives at a stable heap address.
/// `token` is written once, in `init`; the runtime reads and clears weak references atomically.
@usableFromInline
package final class ScopeSlot: @unchecked Sendable {
    private let mutex = PlatformLock()
    /// How many times the scope has been reset. Guarded by the mutex.
    private var current = 0
    /// Every cell of this scope in this container, in the order they were first resolved. Guarded
    /// by the mutex.
    private var members: [any ScopeMember] = []
    /// The scope, held weakly: `nil` once the scope has ended (see ``ScopeTable``).
    private weak var token: Lifetime.Token?
    /// The table that holds this slot: it lives as long as the container, and every caller of the
    /// slot is running a resolve or a reset of that container.
    private unowned let table: ScopeTable

    init(scope: Lifetime, table: ScopeTable) {
        token = scope.token
        self.table = table
    }

    deinit {
        mutex.destroy()
    }

    @usableFromInline
    func lock() { mutex.lock() }

    @usableFromInline
    func unlock() { mutex.unlock() }

    /// The current generation's number; call with the lock held.
    @usableFromInline
    var lockedGeneration: Int { current }

    /// How many times the scope has been reset.
    var generation: Int {
        lock()
        defer { unlock() }
        return current
    }

    /// Whether every value of the scope is gone, so that no one can ask for its instances again.
    var hasEnded: Bool { token == nil }

    /// Adds a cell of this scope; a reset ends its generation with every other.
    func register(_ member: any ScopeMember) {
        lock()
        defer { unlock() }
        members.append(member)
    }

    /// Starts a new generation: every cell stops handing out its instance, and once no reader can
    /// still be reading an old instance, the old instances and their creation cells are returned
    /// for the caller to release unlocked — the last reference to an instance runs its deinit.
    func advance() -> [AnyObject] {
        lock()
        defer { unlock() }
        current += 1
        var ended: [AnyObject] = []
        for member in members { member.endGeneration(into: &ended) }
        // Waiting with the lock held keeps this scope's resets one at a time. No reader waits for
        // this lock inside its window.
        table.drainReaders()
        return ended
    }
}

/// What a reset asks of each cell of its scope; see ``ScopedCell``.
protocol ScopeMember: AnyObject, Sendable {
    /// Stops handing out the current instance and moves it, and its creation cell, into `ended`.
    /// Called with the scope slot's lock held; the slot then waits for the readers of its table
    /// before anything in `ended` is released.
    func endGeneration(into ended: inout [AnyObject])
}

/// One call site's instance in one scope of one container: a `shared(in:) {}` resolve finds it with
/// one lookup in the container's ``ScopeTable``, as `shared {}` finds its cell, and reads the
/// instance without a lock.
///
/// ## The hit path
///
/// The cell keeps the current instance in a word (an ``Instance`` box, retained by the word, or `0`
/// when this generation has none yet). The table keeps an epoch and two reader counters for all its
/// cells. A hit increments the counter the epoch selects, finds the cell, loads the instance word,
/// copies the value out of the box (which retains the value, not the box) and decrements the
/// counter. Inside that window it runs no user code, takes no lock and does not wait, so the window
/// is a handful of instructions.
///
/// ## Why a reset never frees what a reader is reading
///
/// A reset, holding the slot's lock, exchanges the instance word for `0`, then waits until each
/// of the two counters has been seen at `0` — the one the epoch does not select first, then it
/// flips the epoch and waits for the other — and only then releases the old box. The counter
/// increments, the instance loads, the exchange and the counter loads are all sequentially
/// consistent, so they fall in one total order. Take a reader and either counter's wait:
///
/// - If the reader's increment comes before the load that saw the counter at `0`, that load saw
///   the increment and its decrement: the reader was done with the box.
/// - If it comes after, the reader's load of the instance word comes after the exchange, so it
///   finds `0` or a newer instance — never the box being released.
///
/// Both counters are waited for after the exchange, so every reader is covered whichever counter
/// it chose. The epoch only keeps the waits short: after the flip, new readers count themselves on
/// the other counter, so a counter being waited for only sees readers that loaded the epoch before
/// the flip, one window each (waits are serialised, so no other flip undoes it). The wait for the
/// last load that saw `0` acquires every reader's decrement, so the release happens after every read
/// of the box.
///
/// ## The miss path
///
/// When the word is `0`, the resolve takes the slot's lock and finds or makes the generation's
/// creation cell (a ``OnceCell``, or an ``AsyncOnceCell`` for the `async` form), retains it and
/// unlocks; the cell runs `make` at most once, unlocked, so cycles are named and waits bounded as
/// for `shared {}`. The value is then published in a new box with a release store, under the lock,
/// and only if that creation cell is still the generation's: a resolve that raced a reset returns
/// the old generation's instance without publishing it.
///
/// `@unchecked Sendable` is sound here: the instance word is only touched with the atomics above, at
/// a heap address this object owns, and the counters at the table's; `creation` is only touched
/// with the slot's lock held.
@usableFromInline
package final class ScopedCell<Value: Sendable>: ScopeMember, @unchecked Sendable {
    /// The box a generation's instance lives in, immutable once published.
    @usableFromInline
    final class Instance: Sendable {
        @usableFromInline
        let value: Value

        @usableFromInline
        init(_ value: Value) { self.value = value }
    }

    /// The current instance; see the type's discussion.
    @usableFromInline
    let words: UnsafeMutablePointer<Int>
    /// The table's epoch and reader counters (``ScopeTable/words``); the table lives as long as the
    /// container, and every reader of this cell is running a resolve of that container.
    @usableFromInline
    let readers: UnsafeMutablePointer<Int>
    /// Safe to hold unowned: the container's table keeps the slot as long as this cell, and removes
    /// both only once their scope has ended, when no resolve can reach this cell any more.
    @usableFromInline
    unowned let slot: ScopeSlot
    /// The generation's creation cell, once a resolve has missed in it. Guarded by the slot's lock.
    @usableFromInline
    var creation: (any AnyObject & Sendable)?

    init(slot: ScopeSlot, table: ScopeTable) {
        words = .allocate(capacity: 1)
        words.initialize(to: 0)
        readers = table.words
        self.slot = slot
    }

    deinit {
        let raw = dk_atomic_exchange_seq_cst(words, 0)
        if raw != 0 { Self.box(at: raw).release() }
        words.deallocate()
    }

    @usableFromInline
    static func box(at raw: Int) -> Unmanaged<Instance> {
        Unmanaged<Instance>.fromOpaque(UnsafeRawPointer(bitPattern: raw).unsafelyUnwrapped)
    }

    /// The current generation's instance, or `nil` when it has not been made (or published) yet.
    @inlinable
    func instance() -> Value? {
        ScopeTable.window(readers) { instanceInWindow() }
    }

    /// ``instance()`` for a caller already inside a readers' window of the cell's table.
    @inlinable
    func instanceInWindow() -> Value? {
        let raw = dk_atomic_load_seq_cst(words)
        return raw == 0 ? nil : Self.box(at: raw)._withUnsafeGuaranteedRef { $0.value }
    }

    /// Runs `body` inside a readers' window with the instance word: the box it points to, if any,
    /// is not released before `body` returns. `body` must not run user code, take the slot's lock
    /// or wait for anything a reset does (tests pause in it, to hold a reset).
    @inlinable
    func read<Result>(_ body: (_ instanceWord: Int) -> Result) -> Result {
        ScopeTable.window(readers) { body(dk_atomic_load_seq_cst(words)) }
    }

    /// The miss path of a synchronous resolve: creates the generation's instance, or waits for the
    /// resolve that is creating it.
    /// - Parameters:
    ///   - describe: Names the instance of a generation, for the cycle and deadlock messages.
    ///   - make: Creates the instance. Runs unlocked, at most once per generation unless it throws.
    /// - Returns: The instance of the generation current when this call began.
    ///
    /// Inlinable, like the hit path, so that it is specialised for the instance's type: a reset
    /// makes the next resolve take it, and generic code would look up the cells' metadata at run
    /// time on every such miss.
    @inlinable
    func create(describedBy describe: (_ generation: Int) -> String, make: () throws -> Value) rethrows -> Value {
        slot.lock()
        let cell = creationCell { OnceCell<Value>() }
        let generation = slot.lockedGeneration
        slot.unlock()
        let value = try cell.value(describedBy: { describe(generation) }, make: make)
        publish(value, createdIn: cell)
        return value
    }

    /// The miss path of an `async` resolve; see ``create(describedBy:make:)``.
    /// - Parameters:
    ///   - describe: Names the instance of a generation, for the cycle and deadlock messages.
    ///   - isolation: The caller's isolation, inherited by `make`.
    ///   - make: Creates the instance. Runs unlocked, at most once per generation unless it throws.
    /// - Returns: The instance of the generation current when this call began.
    /// - Throws: What ``AsyncOnceCell/value(describedBy:isolation:make:)`` throws.
    @usableFromInline
    func create<Failure: Error>(
        describedBy describe: (_ generation: Int) -> String,
        isolation: isolated (any Actor)?,
        make: () async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        slot.lock()
        let cell = creationCell { AsyncOnceCell<Value>() }
        let generation = slot.lockedGeneration
        slot.unlock()
        let value = try await cell.value(describedBy: { describe(generation) }, isolation: isolation, make: make)
        publish(value, createdIn: cell)
        return value
    }

    /// The generation's creation cell, made on first use. Call with the slot's lock held. A call
    /// site is either synchronous or `async` (the key's kind tells them apart), so the cell's type
    /// never changes.
    @inlinable
    func creationCell<Cell: AnyObject & Sendable>(_ makeCell: () -> Cell) -> Cell {
        if let creation { return unsafeDowncast(creation, to: Cell.self) }
        let made = makeCell()
        creation = made
        return made
    }

    /// Hands `value` out from now on, if `cell` still creates this generation's instance.
    @inlinable
    func publish(_ value: Value, createdIn cell: AnyObject) {
        slot.lock()
        defer { slot.unlock() }
        guard creation === cell, dk_atomic_load_relaxed(words) == 0 else { return }
        dk_atomic_store_release(words, Int(bitPattern: Unmanaged.passRetained(Instance(value)).toOpaque()))
    }

    func endGeneration(into ended: inout [AnyObject]) {
        let raw = dk_atomic_exchange_seq_cst(words, 0)
        if raw != 0 { ended.append(Self.box(at: raw).takeRetainedValue()) }
        if let creation {
            ended.append(creation)
            self.creation = nil
        }
    }
}
