/// A value protected by the module's ``PlatformLock``, with the shape of `Synchronization.Mutex`.
///
/// Rule of the house: never call user code (a resolve, a factory closure) inside
/// ``withLock(_:)``. Every caller copies what it needs out, unlocks, then runs user code.
///
/// Give it a value with a size (a counter, a dictionary), not `Void`: ThreadSanitizer reports
/// false races on the zero-sized `inout` access that `Locked<Void>` makes.
///
/// `Sendable` when `Value` is, as swift-nio's `NIOLockedValueBox`: a lock makes access exclusive, it
/// does not make a value that is not `Sendable` safe to hand to another isolation domain.
package final class Locked<Value> {
    private let mutex = PlatformLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        mutex.lock()
        defer { mutex.unlock() }
        return try body(&value)
    }
}

/// `@unchecked Sendable` is sound here: `value` is `Sendable` and only reached through `withLock`,
/// which holds the mutex for the whole access, and the mutex itself lives at a stable heap address
/// that is never moved or copied.
extension Locked: @unchecked Sendable where Value: Sendable {}
