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
/// task, that asks for the same instance — cannot be told from a creation that is only slow: a
/// wait past the limit is reported, naming the instance, and goes on, so a slow creation is
/// waited for. Each case runs in a child process with a short wait limit.
struct SharedInstanceDeadlockTests {
    @Test func creationWaitingForAnotherThreadThatNeedsTheSameInstanceIsReportedAndNamed() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            CreationWaits.waitLimitMilliseconds = 300
            CreationWaits.longWaitReporter = { message in
                writeToStandardError(message)
                exit(0)
            }
            exitWithFailureIfStillRunning(afterSeconds: 60)
            _ = HandOffContainer().resolveSession()
        }
        let output = standardError(of: result)
        #expect(output.contains("goes on waiting"), "\(output)")
        #expect(output.contains("resolveSession()"), "\(output)")
        #expect(output.contains("HandOffContainer"), "\(output)")
        #expect(output.contains("DispatchQueue.main.sync"), "\(output)")
    }

    @Test func asyncCreationAwaitingADetachedTaskThatNeedsTheSameInstanceIsReportedAndNamed() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            CreationWaits.waitLimitMilliseconds = 300
            CreationWaits.longWaitReporter = { message in
                writeToStandardError(message)
                exit(0)
            }
            exitWithFailureIfStillRunning(afterSeconds: 60)
            _ = await HandOffContainer().resolveIndex()
        }
        let output = standardError(of: result)
        #expect(output.contains("goes on waiting"), "\(output)")
        #expect(output.contains("resolveIndex()"), "\(output)")
        #expect(output.contains("HandOffContainer"), "\(output)")
        #expect(output.contains("Task.detached"), "\(output)")
    }

    @Test func aLongWaitIsReportedOnStandardErrorByDefault() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            CreationWaits.reportLongWait(CreationWaits.longWaitMessage("the shared Loop", waitedMilliseconds: 30_000))
        }
        let output = standardError(of: result)
        #expect(output.hasPrefix("DependencyKit: This thread has waited 30.0 s for the shared Loop"), "\(output)")
    }

    @Test func aCreationSlowerThanTheWaitLimitIsWaitedForByAnotherThread() async {
        await #expect(processExitsWith: .success) {
            CreationWaits.waitLimitMilliseconds = 50
            // The creation blocks until the waiter below has waited past the limit, which the
            // report tells.
            let release = DispatchSemaphore(value: 0)
            CreationWaits.longWaitReporter = { _ in release.signal() }
            let container = HandOffContainer()
            let started = DispatchSemaphore(value: 0)
            let created = Locked<Loop?>(nil)
            let creatorDone = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                let loop = container.resolveSlow(started: started, release: release)
                created.withLock { $0 = loop }
                creatorDone.signal()
            }
            started.wait()
            let waited = container.resolveSlow(started: nil, release: nil)
            creatorDone.wait()
            if waited !== created.withLock({ $0 }) { fatalError("the waiter got another instance") }
        }
    }

    @Test func anAsyncCreationSlowerThanTheWaitLimitIsWaitedForByAnotherTask() async {
        await #expect(processExitsWith: .success) {
            CreationWaits.waitLimitMilliseconds = 50
            let container = GatedContainer()
            // The creation is released once the waiter below has waited past the limit.
            CreationWaits.longWaitReporter = { _ in container.release() }
            let creator = Task { try await container.resolveDatabase() }
            for await _ in container.entered { break }
            let waited = try await container.resolveDatabase()
            if try await creator.value !== waited { fatalError("the waiter got another instance") }
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

/// Ends the child process with a failure after `seconds`, so an exit test expecting success fails
/// instead of hanging when the report under test never comes.
private func exitWithFailureIfStillRunning(afterSeconds seconds: Int) {
    DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds)) { exit(1) }
}

private func writeToStandardError(_ text: String) {
    _ = text.withCString { write(2, $0, strlen($0)) }
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

    /// A creation that takes as long as the test says: it waits for `release`.
    func resolveSlow(started: DispatchSemaphore?, release: DispatchSemaphore?) -> Loop {
        shared {
            started?.signal()
            release?.wait()
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
