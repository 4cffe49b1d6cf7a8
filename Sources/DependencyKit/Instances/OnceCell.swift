internal import _DependencyKitShims

/// A slot filled at most once at a time by a closure that runs **without** the lock held.
///
/// Shared instances and a factory's lazy dependency both need "create once, even when many
/// threads ask first at the same moment", and both run user code to create. Holding a lock
/// across that code would deadlock (or trap) as soon as the creation asks for another shared
/// value guarded by the same lock. So the lock only guards the state: the first caller marks
/// the cell as being created by its thread, unlocks and runs the closure; later callers wait on
/// the cell's condition variable, which releases the mutex while they sleep.
///
/// A caller that arrives on the thread that is creating the value is re-entering its own
/// creation — a dependency cycle. Waiting would hang forever, so the cell stops the process with
/// a message that names what was being created. Threads that would wait for each other in a
/// circle (thread 1 creates A, which needs B, while thread 2 creates B, which needs A) stop the
/// same way; see ``CreationWaits``. A circle through something other than a cell — the creation
/// waits in `DispatchQueue.main.sync` for work that asks for the same value — cannot be seen, nor
/// told from a creation that is only slow: a thread that has waited for one creation longer than
/// ``CreationWaits/waitLimitMilliseconds`` reports it once, naming the value and the likely fix,
/// and goes on waiting.
///
/// If the creation throws, the cell goes back to empty and wakes the waiters; one of them
/// creates next. Nothing is cached from a failed creation.
///
/// `@unchecked Sendable` is sound here: `state`, `creations` and `waitedFor` are only touched with the
/// mutex held (which lives at a stable heap address), except that a settled cell's `state`, never
/// written again, is read after an acquire load of `settled` (see ``settled``). Callers store only
/// values that are `Sendable` (or weak references to them).
@usableFromInline
package final class OnceCell<Value>: @unchecked Sendable {
    @usableFromInline
    enum State {
        case empty
        case creating(owner: UInt)
        case ready(Value)
    }

    @usableFromInline
    let mutex = PlatformLock(waitable: true)
    @usableFromInline
    var state = State.empty
    /// How many creations have begun, so that a waiter can tell one long creation from several.
    private var creations = 0
    /// Whether a thread has waited for the creation in progress (and so registered it with
    /// ``CreationWaits``); guarded by the lock.
    private var waitedFor = false
    /// `1` once a creation has stored a value, with a release store after the write of `state`.
    ///
    /// Only ``value(describedBy:make:)`` reads it: its `read` never rejects the stored value, so once
    /// `.ready` the state is never written again, and reading it without the mutex after the acquire
    /// load of `settled` is ordered after the write. A cell is used either only through that method or
    /// only through ``value(describedBy:read:make:)`` — the callers key them apart (`SharedKey.Kind`,
    /// one cell per factory) — never through both; a cell whose `read` may reject (a weak reference)
    /// is settled too, but nothing reads its `settled`.
    @usableFromInline
    let settled = AtomicWord(0)

    @usableFromInline
    package init() {}

    /// Returns the stored value, creating it first if the cell is empty or `read` rejects it.
    ///
    /// Inlinable so that the common case — the value is ready — is specialised for the caller's
    /// type: one lock, one read, no generic metadata lookups. Everything else is out of line.
    /// - Parameters:
    ///   - describe: Names what is being created, for the cycle message only.
    ///   - read: Turns the stored value into the result, or returns `nil` when it is gone (a
    ///     weak reference whose object died). Runs with the lock held: never pass user code.
    ///   - make: Creates the value to store and the result to return. Runs unlocked.
    /// - Returns: The result of `read` on the stored value, or what `make` created.
    @inlinable
    package func value<Result>(
        describedBy describe: () -> String,
        read: (Value) -> Result?,
        make: () throws -> (store: Value, result: Result)
    ) rethrows -> Result {
        mutex.lock()
        if case .ready(let stored) = state, let result = read(stored) {
            mutex.unlock()
            return result
        }
        return try waitOrCreate(describedBy: describe, read: read, make: make)
    }

    /// The slow path of ``value(describedBy:read:make:)``: wait for another creator, or create. Call
    /// with the mutex held; it is released before this returns or runs `make`.
    @usableFromInline
    func waitOrCreate<Result>(
        describedBy describe: () -> String,
        read: (Value) -> Result?,
        make: () throws -> (store: Value, result: Result)
    ) rethrows -> Result {
        let me = UInt(dk_current_thread())
        let cell = ObjectIdentifier(self)
        // Which creation this thread has been waiting for, and since when.
        var waitedCreation = 0
        var waitingSince = 0
        var reported = false
        waiting: while true {
            // A value `read` accepts is the result; a value it rejects, or none, is created here.
            if case .ready(let stored) = state, let result = read(stored) {
                mutex.unlock()
                return result
            }
            guard case .creating(let owner) = state else { break waiting }
            if owner == me {
                mutex.unlock()
                fatalError(
                    "Dependency cycle: \(describe()) was requested again while it was being created"
                )
            }
            waitedFor = true
            if let circle = CreationWaits.wait(me, for: cell, createdBy: owner, describedBy: describe) {
                mutex.unlock()
                fatalError(
                    "Dependency cycle across threads: \(circle.joined(separator: " → ")); "
                        + "each creation waits for the next one, which is being created on another thread"
                )
            }
            // A creation that hands work synchronously to another thread which then asks for this
            // value (`DispatchQueue.main.sync`) is a circle this table cannot see: the creator waits
            // in the queue, not on a cell. Nor can it be told from a creation that is only slow, so
            // a long wait is reported once and goes on.
            let now = CreationWaits.monotonicMilliseconds()
            if waitedCreation != creations {
                waitedCreation = creations
                waitingSince = now
                reported = false
            }
            let limit = CreationWaits.waitLimitMilliseconds
            if !reported && now - waitingSince >= limit {
                reported = true
                CreationWaits.stopWaiting(me)
                mutex.unlock()
                CreationWaits.reportLongWait(
                    CreationWaits.longWaitMessage(describe(), waitedMilliseconds: now - waitingSince))
                mutex.lock()
                continue waiting
            }
            mutex.wait(milliseconds: reported ? limit : limit - (now - waitingSince))
            CreationWaits.stopWaiting(me)
        }
        state = .creating(owner: me)
        creations &+= 1
        mutex.unlock()

        // `nil` if `make` throws: the cell goes back to empty. Either way the creation ends, and its
        // waiters, if it had any, are woken and unregistered.
        var stored: Value?
        defer {
            mutex.lock()
            state = stored.map(State.ready) ?? .empty
            if stored != nil { settled.storeRelease(1) }
            if waitedFor {
                waitedFor = false
                CreationWaits.ended(cell)
                mutex.broadcast()
            }
            mutex.unlock()
        }
        let made = try make()
        stored = made.store
        return made.result
    }
}

extension OnceCell {
    /// Returns the stored value, creating it with `make` the first time.
    /// - Parameters:
    ///   - describe: Names what is being created, for the cycle message only.
    ///   - make: Creates the value. Runs unlocked.
    /// - Returns: The stored value.
    ///
    /// Once the value is stored, this is lock-free: a settled cell is read with one acquire load
    /// and no mutex, so threads that resolve the same shared instance never contend on the cell.
    @inlinable
    package func value(describedBy describe: () -> String, make: () throws -> Value) rethrows -> Value {
        if _fastPath(settled.loadAcquire() != 0), case .ready(let stored) = state {
            return stored
        }
        let stored: (Value) -> Value? = { $0 }
        return try value(describedBy: describe, read: stored) {
            let made = try make()
            return (made, made)
        }
    }
}
