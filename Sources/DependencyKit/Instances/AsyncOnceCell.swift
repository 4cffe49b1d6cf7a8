/// The asynchronous counterpart of ``OnceCell``: created once, and callers that arrive while the
/// creation is under way suspend instead of blocking a thread.
///
/// The creation closure runs unlocked, in the first caller's isolation. A caller that arrives
/// from the creating task — or from a child task of it — is re-entering its own creation, a
/// dependency cycle, and stops the process with a message instead of suspending forever. If
/// the creation throws, waiters are woken and one of them creates next.
///
/// A waiter whose task is cancelled stops waiting at once and throws `CancellationError`, when
/// the creation's error type can carry it (`any Error`); the creation itself goes on. A waiter
/// waits as long as the creation takes: a creation that awaits unstructured work
/// (`Task.detached`) which asks for the same value is a circle no task-local context can reveal,
/// and cannot be told from a slow one, so a wait longer than
/// ``CreationWaits/waitLimitMilliseconds`` is reported once, naming the value, and goes on.
@usableFromInline
package final class AsyncOnceCell<Value: Sendable>: Sendable {
    private enum Phase {
        case empty
        /// The suspended waiters, by id, each resumed with whether its wait was cancelled.
        case creating(waiters: [Int: CheckedContinuation<Bool, Never>])
        case ready(Value)
    }

    private struct State {
        var phase = Phase.empty
        var nextWaiter = 0
    }

    private let state = Locked(State())

    package init() {}

    /// Returns the stored value, creating it with `make` the first time.
    /// - Parameters:
    ///   - describe: Names what is being created, for the stop messages only.
    ///   - isolation: The caller's isolation, inherited by `make`.
    ///   - make: Creates the value. Runs unlocked.
    /// - Returns: The stored value.
    /// - Throws: What `make` throws, if this caller created; `CancellationError` if this caller's
    ///   task was cancelled while it waited for another caller's creation and `Failure` can hold it.
    package func value<Failure: Error>(
        describedBy describe: () -> String,
        isolation: isolated (any Actor)? = #isolation,
        make: () async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        while true {
            // The stored value; else this caller's waiter id while another creates; else neither: create.
            let (stored, waiter): (Value?, Int?) = state.withLock { state in
                switch state.phase {
                case .ready(let value):
                    return (value, nil)
                case .empty:
                    state.phase = .creating(waiters: [:])
                    return (nil, nil)
                case .creating:
                    state.nextWaiter += 1
                    return (nil, state.nextWaiter)
                }
            }
            if let stored { return stored }
            guard let waiter else { return try await create(isolation: isolation, make) }
            if AsyncCreation.cells.contains(ObjectIdentifier(self)) {
                fatalError("Dependency cycle: \(describe()) was requested again while it was being created")
            }
            // Only a caller whose error type can carry `CancellationError` may stop early; the
            // others have no way to report it, so they keep waiting.
            let cancellation = CancellationError() as? Failure
            // A wait that was not cancelled ended with the creation: look again, and take the value
            // or, if the creation failed, perhaps create.
            let cancelled = await wait(
                waiter, describedBy: describe(), cancellable: cancellation != nil, isolation: isolation)
            if cancelled, let cancellation { throw cancellation }
        }
    }

    /// How many callers are suspended waiting for the creation under way. For tests.
    package var waiterCount: Int {
        state.withLock { state in
            if case .creating(let waiters) = state.phase { return waiters.count }
            return 0
        }
    }

    /// Creates the value as the one creator, then stores it (or empties the cell after a failure) and
    /// wakes the waiters.
    private func create<Failure: Error>(
        isolation: isolated (any Actor)?,
        _ make: () async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let made = await AsyncCreation.$cells.outcome(
            binding: AsyncCreation.cells + [ObjectIdentifier(self)], isolation: isolation, make)
        let waiters: [Int: CheckedContinuation<Bool, Never>] = state.withLock { state in
            guard case .creating(let waiters) = state.phase else { return [:] }
            state.phase = (try? made.get()).map(Phase.ready) ?? .empty
            return waiters
        }
        for continuation in waiters.values { continuation.resume(returning: false) }
        return try made.get()
    }

    /// Suspends until the creation under way ends or, if `cancellable`, the task is cancelled;
    /// reports the wait if it outlasts the wait limit.
    /// - Returns: Whether the wait ended because the task was cancelled.
    private func wait(
        _ id: Int,
        describedBy description: String,
        cancellable: Bool,
        isolation: isolated (any Actor)?
    ) async -> Bool {
        let watchdog = watch(id, describedBy: description)
        defer { watchdog.cancel() }
        return await withTaskCancellationHandler(
            operation: {
                await withCheckedContinuation(isolation: isolation) { continuation in
                    // Checked under the lock that ``cancel(_:)`` takes: a cancellation that came before
                    // this check finds no continuation, and one that comes after finds this one.
                    let immediate: Bool? = state.withLock { state in
                        if cancellable && Task.isCancelled { return true }
                        guard case .creating(var waiters) = state.phase else { return false }
                        waiters[id] = continuation
                        state.phase = .creating(waiters: waiters)
                        return nil
                    }
                    if let immediate { continuation.resume(returning: immediate) }
                }
            },
            onCancel: { if cancellable { cancel(id) } },
            isolation: isolation
        )
    }

    /// Wakes waiter `id` as cancelled if it is suspended (one that has not suspended yet sees its
    /// task cancelled and does not).
    private func cancel(_ id: Int) {
        let continuation: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard case .creating(var waiters) = state.phase, let continuation = waiters.removeValue(forKey: id)
            else { return nil }
            state.phase = .creating(waiters: waiters)
            return continuation
        }
        continuation?.resume(returning: true)
    }

    /// Reports the wait if waiter `id` is still suspended after the wait limit.
    ///
    /// The watchdog holds the cell weakly: it is cancelled when the wait ends but only winds down
    /// when it next runs, and a strong reference would keep the cell — and the instance it made —
    /// alive until then, past the reset that ended a scoped instance. A waiter holds the cell while
    /// it waits, so a cell that is gone has no one left to watch.
    private func watch(_ id: Int, describedBy description: String) -> Task<Void, Never> {
        let limit = CreationWaits.waitLimitMilliseconds
        let start = CreationWaits.monotonicMilliseconds()
        return Task.detached { [weak self] in
            // A cancelled sleep throws: the wait has ended.
            guard (try? await Task.sleep(nanoseconds: UInt64(max(0, limit)) * 1_000_000)) != nil, let self else {
                return
            }
            let stillWaiting = state.withLock { state in
                guard case .creating(let waiters) = state.phase else { return false }
                return waiters[id] != nil
            }
            if stillWaiting {
                CreationWaits.reportLongWait(
                    CreationWaits.asyncLongWaitMessage(
                        description,
                        waitedMilliseconds: CreationWaits.monotonicMilliseconds() - start
                    )
                )
            }
        }
    }
}

/// The asynchronous creations under way in the current task and its ancestors, by cell.
///
/// Child tasks inherit it, so a child that asks for an instance its parent is creating — and
/// that the parent awaits — is recognised as a cycle.
enum AsyncCreation {
    @TaskLocal static var cells: [ObjectIdentifier] = []
}
