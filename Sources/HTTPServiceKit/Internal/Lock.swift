import Foundation

/// A value that only one thread at a time may read or change: this module's one lock.
///
/// HTTPServiceKit depends on nothing but Foundation, so it keeps this small lock of its own; AppCore
/// and the tests' support share it (`package`), since they use only DependencyKit's public API.
///
/// `@unchecked Sendable` is safe because `state` is reached only inside ``withLock(_:)``, while
/// `lock` is held, so no two threads ever touch it at once. It is backed by `NSLock` (a pthread
/// mutex), which ThreadSanitizer understands on every platform.
package final class Lock<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    /// Creates a lock guarding `initial`.
    package init(_ initial: State) {
        state = initial
    }

    /// Runs `body` with exclusive access to the state. Never call user code from `body`.
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
