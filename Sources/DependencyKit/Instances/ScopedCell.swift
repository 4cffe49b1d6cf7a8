// `public import`: the hit path of a scoped instance is `@inlinable`, so its atomics are inlined
// into client modules.
public import _DependencyKitShims

/// A container's slot for one ``Lifetime``: the scope's generation number and every cell
/// that holds an instance in the scope, behind one lock.
///
/// The lock is held to make or publish a generation's instance cell, and by
/// ``DependencyContainer/reset(_:)`` — never while an instance is created, never on a hit, and
/// never while an old instance is released (its deinit is user code). It is taken directly rather
/// than through a closure so that the specialised miss path of ``ScopedCell`` calls no generic code.
///
/// `@unchecked Sendable` is sound here: `current` and `members` are only touched with the mutex held,
/// and the mutex lives at a stable heap address; `token` is written once, in `init`, and the runtime
/// reads and clears weak references atomically.
@usableFromInline
package final class ScopeSlot: @unchecked Sendable {
    @usableFromInline
    let mutex = PlatformLock()
    /// How many times the scope has been reset, the current generation's number. Guarded by the mutex.
    @usableFromInline
    private(set) var current = 0
    /// Every cell of this scope in this container, in the order they were first resolved. Guarded
    /// by the mutex; a cell adds itself when it is made.
    fileprivate var members: [any ScopeMember] = []
    /// The scope, held weakly: `nil` once the scope has ended (see ``ScopeTable``).
    private weak var token: Lifetime.Token?
    /// The table that holds this slot: it lives as long as the container, and every caller of the
    /// slot (and of its cells) is running a resolve or a reset of that container.
    unowned let table: ScopeTable

    init(scope: Lifetime, table: ScopeTable) {
        token = scope.token
        self.table = table
    }

    /// How many times the scope has been reset.
    var generation: Int {
        mutex.lock()
        defer { mutex.unlock() }
        return current
    }

    /// Whether every value of the scope is gone, so that no one can ask for its instances again.
    var hasEnded: Bool { token == nil }

    /// Starts a new generation: every cell stops handing out its instance, and once no reader can
    /// still be reading an old instance, the old instances and their creation cells are returned
    /// for the caller to release unlocked — the last reference to an instance runs its deinit.
    func advance() -> [AnyObject] {
        mutex.lock()
        defer { mutex.unlock() }
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
    /// Safe to hold unowned: the container's table keeps the slot as long as this cell, and removes
    /// both only once their scope has ended, when no resolve can reach this cell any more.
    @usableFromInline
    unowned let slot: ScopeSlot
    /// The generation's creation cell, once a resolve has missed in it. Guarded by the slot's lock.
    @usableFromInline
    var creation: (any AnyObject & Sendable)?

    /// Makes the cell and adds it to its slot's members, whose resets then end its generations.
    init(slot: ScopeSlot) {
        words = .allocate(capacity: 1)
        words.initialize(to: 0)
        self.slot = slot
        slot.mutex.lock()
        slot.members.append(self)
        slot.mutex.unlock()
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

    /// The current generation's instance, or `nil` when it has not been made (or published) yet; call
    /// inside a readers' window of the cell's table (``ScopeTable/instance(inTableAt:for:as:)``).
    @inlinable
    func instanceInWindow() -> Value? {
        let raw = dk_atomic_load_seq_cst(words)
        return raw == 0 ? nil : Self.box(at: raw)._withUnsafeGuaranteedRef { $0.value }
    }

    /// Runs `body` inside a readers' window with the instance word: the box it points to, if any,
    /// is not released before `body` returns. `body` must not run user code, take the slot's lock
    /// or wait for anything a reset does (tests pause in it, to hold a reset).
    func read<Result>(_ body: (_ instanceWord: Int) -> Result) -> Result {
        ScopeTable.window(slot.table.words) { body(dk_atomic_load_seq_cst(words)) }
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
        let (cell, generation) = creationCell { OnceCell<Value>() }
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
        let (cell, generation) = creationCell { AsyncOnceCell<Value>() }
        let value = try await cell.value(describedBy: { describe(generation) }, isolation: isolation, make: make)
        publish(value, createdIn: cell)
        return value
    }

    /// The generation's creation cell, made on first use, and the generation's number. A call site
    /// is either synchronous or `async` (the key's kind tells them apart), so the cell's type never
    /// changes.
    @inlinable
    func creationCell<Cell: AnyObject & Sendable>(_ makeCell: () -> Cell) -> (cell: Cell, generation: Int) {
        slot.mutex.lock()
        defer { slot.mutex.unlock() }
        if creation == nil { creation = makeCell() }
        return (unsafeDowncast(creation.unsafelyUnwrapped, to: Cell.self), slot.current)
    }

    /// Hands `value` out from now on, if `cell` still creates this generation's instance.
    @inlinable
    func publish(_ value: Value, createdIn cell: AnyObject) {
        slot.mutex.lock()
        defer { slot.mutex.unlock() }
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
