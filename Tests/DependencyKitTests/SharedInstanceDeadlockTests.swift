import Dispatch
import Testing

@testable import DependencyKit

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Circles that no cell can see — a creation waiting for another thread, or awaiting a detached
/// task, that asks for the same instance — must stop with a message instead of hanging. Each
/// case runs in a child process with a short wait limit; if nothing stops it, the child exits
/// successfully after a long fallback delay, so the expectation fails instead of hanging.
struct SharedInstanceDeadlockTests {
    @Test func creationWaitingForAnotherThreadThatNeedsTheSameInstanceStopsAndNamesIt() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            CreationWaits.waitLimitMilliseconds = 300
            exitSuccessfullyIfStillRunning(afterSeconds: 20)
            _ = HandOffContainer().resolveSession()
        }
        let output = standardError(of: result)
        #expect(output.contains("Shared instance deadlock"), "\(output)")
        #expect(output.contains("resolveSession()"), "\(output)")
        #expect(output.contains("HandOffContainer"), "\(output)")
        #expect(output.contains("DispatchQueue.main.sync"), "\(output)")
    }

    @Test func asyncCreationAwaitingADetachedTaskThatNeedsTheSameInstanceStopsAndNamesIt() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            CreationWaits.waitLimitMilliseconds = 300
            exitSuccessfullyIfStillRunning(afterSeconds: 20)
            _ = await HandOffContainer().resolveIndex()
        }
        let output = standardError(of: result)
        #expect(output.contains("Shared instance deadlock"), "\(output)")
        #expect(output.contains("resolveIndex()"), "\(output)")
        #expect(output.contains("HandOffContainer"), "\(output)")
        #expect(output.contains("Task.detached"), "\(output)")
    }

    @Test func waitersOfASlowCreationWithinTheLimitGetItsInstance() async {
        await #expect(processExitsWith: .success) {
            CreationWaits.waitLimitMilliseconds = 5_000
            let container = HandOffContainer()
            let creating = DispatchSemaphore(value: 0)
            let waiter = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var seen: Loop?
            DispatchQueue.global().async {
                _ = container.resolveSlow(started: creating)
            }
            creating.wait()
            DispatchQueue.global().async {
                seen = container.resolveSlow(started: nil)
                waiter.signal()
            }
            waiter.wait()
            if seen !== container.resolveSlow(started: nil) { fatalError("the waiter got another instance") }
        }
    }
}

/// A waiter of an async shared instance whose task is cancelled stops waiting at once, while the
/// creation it waited for goes on and is kept.
struct SharedInstanceCancellationTests {
    @Test func cancelledWaiterThrowsCancellationErrorWhileTheCreationIsStillBlocked() async throws {
        let container = GatedContainer()
        let creator = Task { try await container.resolveDatabase() }
        for await _ in container.entered { break }
        let waiter = Task { try await container.resolveDatabase() }
        try await waitUntilSuspended(waiters: 1, in: container)

        waiter.cancel()
        // A waiter that ignored cancellation would wait for the creation: release it after a long
        // delay, so that such a waiter fails the expectations below instead of hanging the test.
        let fallback = Task {
            try await Task.sleep(nanoseconds: 10_000_000_000)
            container.release()
        }
        let outcome = await waiter.result
        let creationWasStillBlocked = !container.isReleased
        container.release()
        fallback.cancel()

        #expect(creationWasStillBlocked)
        #expect(throws: CancellationError.self) { try outcome.get() }
        let database = try await creator.value
        #expect(try await container.resolveDatabase() === database)
        #expect(container.creations.withLock { $0 } == 1)
    }

    @Test func waiterCancelledBeforeItAsksThrowsCancellationErrorWithoutWaiting() async throws {
        let container = GatedContainer()
        let creator = Task { try await container.resolveDatabase() }
        for await _ in container.entered { break }
        let outcome = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await container.resolveDatabase()
        }.result
        let creationWasStillBlocked = !container.isReleased
        container.release()

        #expect(creationWasStillBlocked)
        #expect(throws: CancellationError.self) { try outcome.get() }
        _ = try await creator.value
    }

    @Test func cancelledWaiterOfANonThrowingCreationWaitsForTheInstance() async throws {
        let container = GatedContainer()
        let creator = Task { await container.resolveCatalog() }
        for await _ in container.entered { break }
        let waiter = Task { await container.resolveCatalog() }
        try await waitUntilSuspended(waiters: 1, in: container, kind: Catalog.self)
        waiter.cancel()
        container.release()
        // It has no way to report cancellation, so it gets the instance everyone else gets.
        let waited = await waiter.value
        let created = await creator.value
        #expect(waited === created)
    }

    @Test func asyncCreationErrorReachesItsCallerAndTheNextCallCreatesAgain() async throws {
        let container = GatedContainer()
        container.release()
        await #expect(throws: GatedContainer.OpenFailed.self) { try await container.resolveFlakyDatabase() }
        let database = try await container.resolveFlakyDatabase()
        #expect(try await container.resolveFlakyDatabase() === database)
        #expect(container.creations.withLock { $0 } == 2)
    }

    private func waitUntilSuspended<T: Sendable>(
        waiters: Int,
        in container: GatedContainer,
        kind: T.Type = Database.self
    ) async throws {
        let cell = container.sharedInstances.cell(for: GatedContainer.key(T.self)) { AsyncOnceCell<T>() }
        for _ in 0..<10_000 where cell.waiterCount < waiters {
            try await Task.sleep(nanoseconds: 1_000_000)
        }
        try #require(cell.waiterCount == waiters)
    }
}

/// Ends the child process successfully after `seconds`, so an exit test expecting a failure
/// fails instead of hanging when the stop under test never comes.
private func exitSuccessfullyIfStillRunning(afterSeconds seconds: Int) {
    DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds)) { exit(0) }
}

private final class Loop: Sendable {
    let inner: Loop?
    init(inner: Loop?) { self.inner = inner }
}

private final class HandOffContainer: DependencyContainer, @unchecked Sendable {
    /// The creation hands work to another thread and blocks until it is done — the shape of
    /// `DispatchQueue.main.sync` — and that work asks for the instance being created.
    func resolveSession() -> Loop {
        shared {
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var inner: Loop?
            DispatchQueue.global().async {
                inner = self.resolveSession()
                done.signal()
            }
            done.wait()
            return Loop(inner: inner)
        }
    }

    /// The creation awaits a detached task, which does not inherit the creation's context, and
    /// that task asks for the instance being created.
    func resolveIndex() async -> Loop {
        await shared {
            let other = Task.detached { await self.resolveIndex() }
            return Loop(inner: await other.value)
        }
    }

    /// A creation that takes a while, but finishes.
    func resolveSlow(started: DispatchSemaphore?) -> Loop {
        shared {
            started?.signal()
            usleep(200_000)
            return Loop(inner: nil)
        }
    }
}

private final class Database: Sendable {}
private final class Catalog: Sendable {}

/// Async shared instances whose creation blocks until the test releases it.
private final class GatedContainer: DependencyContainer, @unchecked Sendable {
    let entered: AsyncStream<Void>
    private let enteredContinuation: AsyncStream<Void>.Continuation
    private let gate = Locked<(released: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))
    let creations = Locked(0)

    override init() {
        (entered, enteredContinuation) = AsyncStream<Void>.makeStream()
        super.init()
    }

    static func key(_ type: Any.Type) -> SharedKey {
        SharedKey(fileID: "Gated.swift", line: 1, column: 1, type: type, kind: .async)
    }

    var isReleased: Bool { gate.withLock { $0.released } }

    func release() {
        let waiting = gate.withLock { gate in
            gate.released = true
            defer { gate.waiting = [] }
            return gate.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    private func blockUntilReleased() async {
        enteredContinuation.yield()
        await withCheckedContinuation { continuation in
            let now = gate.withLock { gate in
                if gate.released { return true }
                gate.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    func resolveDatabase() async throws -> Database {
        try await shared(fileID: "Gated.swift", line: 1, column: 1) { () async throws -> Database in
            creations.withLock { $0 += 1 }
            await blockUntilReleased()
            return Database()
        }
    }

    struct OpenFailed: Error {}

    /// Fails the first time, then succeeds.
    func resolveFlakyDatabase() async throws -> Database {
        try await shared {
            let attempt = creations.withLock { count in
                count += 1
                return count
            }
            await blockUntilReleased()
            if attempt == 1 { throw OpenFailed() }
            return Database()
        }
    }

    func resolveCatalog() async -> Catalog {
        await shared(fileID: "Gated.swift", line: 1, column: 1) {
            await blockUntilReleased()
            return Catalog()
        }
    }
}
