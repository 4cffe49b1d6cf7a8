import Foundation
internal import HTTPServiceKit
package import Testing

/// The threads a test helper starts, so that the helper can wait for every one of them to end.
///
/// Only ``withThread(_:_:)`` and ``withLoopbackServer(_:_:)`` use it: each starts its threads,
/// runs the test's body, then asks the threads to stop and waits for them, on every path out of
/// the body. The wait is bounded by a hang guard; a thread still running after it is a test issue
/// naming the helper, and the suite goes on.
package final class ThreadGroup: Sendable {
    private struct State {
        var running = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let name: String
    private let state = Lock(State())

    /// - Parameter name: Names the threads, in their thread names and in the issue a hung one records.
    package init(name: String) {
        self.name = name
    }

    /// How many threads of the group are running.
    package var running: Int { state.withLock { $0.running } }

    /// Starts `body` on a new thread of the group.
    package func start(_ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.running += 1 }
        let thread = Thread { [self] in
            body()
            let waiters: [CheckedContinuation<Void, Never>] = state.withLock { state in
                state.running -= 1
                guard state.running == 0 else { return [] }
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
        thread.name = name
        thread.start()
    }

    /// Waits until every thread of the group has ended, at most `limit`; records an issue if one has not.
    package func join(within limit: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation) async {
        let ended = await endsWithin(limit) {
            await self.allEnded()
            return true
        }
        if ended == nil {
            Issue.record(
                "\(running) \(name) thread(s) still running \(limit) after they were told to stop",
                sourceLocation: sourceLocation
            )
        }
    }

    private func allEnded() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done: Bool = state.withLock { state in
                guard state.running > 0 else { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }
}

/// Runs `loop` on a thread of its own while `body` runs, then tells it to stop and waits for it to
/// end, whether `body` returns or throws.
///
/// `loop` receives a `shouldStop` function and must return soon after it answers `true`.
package func withThread<Value>(
    _ loop: @escaping @Sendable (_ shouldStop: @Sendable () -> Bool) -> Void,
    _ body: () async throws -> Value
) async throws -> Value {
    let stop = Lock(false)
    let threads = ThreadGroup(name: "test background")
    threads.start { loop { stop.withLock { $0 } } }
    let outcome: Result<Value, any Error>
    do {
        outcome = .success(try await body())
    } catch {
        outcome = .failure(error)
    }
    stop.withLock { $0 = true }
    await threads.join()
    return try outcome.get()
}
