import Foundation
internal import HTTPServiceKit

/// Runs `body` in a task of its own and waits for it at most `limit`.
///
/// A hang guard, not a timing assertion: `limit` is minutes where the work takes milliseconds,
/// so it only ever decides when the work would otherwise never end. Returns `nil` when the limit
/// passed first; the work is then cancelled and left behind (it cannot be joined, since it does
/// not end), and the caller records the failure and goes on, so one hung call fails its test
/// instead of stopping the suite.
package func endsWithin<Value: Sendable>(
    _ limit: Duration,
    _ body: @escaping @Sendable () async -> Value
) async -> Value? {
    let waiter = OnceResumed<Value?>()
    let work = Task.detached { waiter.resume(with: await body()) }
    let timer = Task.detached {
        try? await Task.sleep(for: limit)
        waiter.resume(with: nil)
    }
    let value = await waiter.wait()
    timer.cancel()
    if value == nil { work.cancel() }
    return value
}

/// A value delivered once to one waiter; later deliveries are ignored.
package final class OnceResumed<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var delivered = false
        var waiter: CheckedContinuation<Value, Never>?
    }

    private let state = Lock(State())

    /// Delivers `value` unless one was delivered already.
    package func resume(with value: Value) {
        let waiter: CheckedContinuation<Value, Never>? = state.withLock { state in
            guard !state.delivered else { return nil }
            state.delivered = true
            guard let waiter = state.waiter else {
                state.value = value
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: value)
    }

    /// The delivered value, waiting for it if it has not come yet. Called at most once.
    package func wait() async -> Value {
        await withCheckedContinuation { continuation in
            let ready: Value? = state.withLock { state in
                guard state.delivered, let value = state.value else {
                    state.waiter = continuation
                    return nil
                }
                state.value = nil
                return value
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
