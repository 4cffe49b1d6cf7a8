/// The asynchronous counterpart of ``OnceCell``: created once, and callers that arrive while the
/// creation is under way suspend instead of blocking a thread.
///
/// The creation closure runs unlocked, in the first caller's isolation. A caller that arrives
/// from the creating task — or from a child task of it — is re-entering its own creation, a
/// dependency cycle, and stops with a precondition failure instead of suspending forever. If
/// the creation throws, waiters are woken and one of them creates next.
package final class AsyncOnceCell<Value: Sendable>: Sendable {
    private enum State {
        case empty
        case creating(waiters: [CheckedContinuation<Value?, Never>])
        case ready(Value)
    }

    private enum Step {
        case done(Value)
        case create
        case wait
    }

    private let state = Locked(State.empty)

    package init() {}

    /// Returns the stored value, creating it with `make` the first time.
    /// - Parameters:
    ///   - describe: Names what is being created, for the cycle message only.
    ///   - isolation: The caller's isolation, inherited by `make`.
    ///   - make: Creates the value. Runs unlocked.
    /// - Returns: The stored value.
    package func value(
        describedBy describe: () -> String,
        isolation: isolated (any Actor)? = #isolation,
        make: () async throws -> Value
    ) async rethrows -> Value {
        while true {
            let step: Step = state.withLock { state in
                switch state {
                case .ready(let value):
                    return .done(value)
                case .empty:
                    state = .creating(waiters: [])
                    return .create
                case .creating:
                    return .wait
                }
            }
            switch step {
            case .done(let value):
                return value
            case .create:
                return try await create(isolation: isolation, make)
            case .wait:
                if AsyncCreation.current?.contains(self) == true {
                    preconditionFailure(
                        "Dependency cycle: \(describe()) was requested again while it was being created"
                    )
                }
                let value: Value? = await withCheckedContinuation(isolation: isolation) { continuation in
                    let immediate: Value?? = state.withLock { state in
                        switch state {
                        case .creating(var waiters):
                            waiters.append(continuation)
                            state = .creating(waiters: waiters)
                            return .none
                        case .ready(let value):
                            return .some(value)
                        case .empty:
                            return .some(nil)
                        }
                    }
                    if let immediate { continuation.resume(returning: immediate) }
                }
                if let value { return value }
            }
        }
    }

    private func create(
        isolation: isolated (any Actor)?,
        _ make: () async throws -> Value
    ) async rethrows -> Value {
        var created: Value?
        defer { finish(with: created) }
        let creation = AsyncCreation(cell: self, parent: AsyncCreation.current)
        let value = try await AsyncCreation.$current.withValue(creation, operation: make, isolation: isolation)
        created = value
        return value
    }

    /// Stores the created value (or empties the cell after a failure) and wakes the waiters.
    private func finish(with value: Value?) {
        let waiters: [CheckedContinuation<Value?, Never>] = state.withLock { state in
            guard case .creating(let waiters) = state else { return [] }
            state = value.map(State.ready) ?? .empty
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: value) }
    }
}

/// The chain of asynchronous shared creations under way in the current task and its ancestors.
///
/// Child tasks inherit it, so a child that asks for an instance its parent is creating — and
/// that the parent awaits — is recognised as a cycle.
final class AsyncCreation: Sendable {
    @TaskLocal static var current: AsyncCreation?

    let cell: ObjectIdentifier
    let parent: AsyncCreation?

    init(cell: AnyObject, parent: AsyncCreation?) {
        self.cell = ObjectIdentifier(cell)
        self.parent = parent
    }

    func contains(_ cell: AnyObject) -> Bool {
        var node: AsyncCreation? = self
        while let current = node {
            if current.cell == ObjectIdentifier(cell) { return true }
            node = current.parent
        }
        return false
    }
}
