#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Bionic)
    import Bionic
#endif

/// A value protected by a platform mutex, with the shape of `Synchronization.Mutex`.
///
/// `Synchronization.Mutex` needs macOS 15 / iOS 18, and on Linux ThreadSanitizer does not
/// understand it (it reports false races). A pthread mutex works everywhere and TSan sees it.
///
/// Rule of the house: never call user code (a resolve, a factory closure) inside
/// ``withLock(_:)``. Every caller copies what it needs out, unlocks, then runs user code.
///
/// Give it a value with a size (a counter, a dictionary), not `Void`: ThreadSanitizer reports
/// false races on the zero-sized `inout` access that `Locked<Void>` makes.
///
/// `@unchecked Sendable` is sound here: `value` is only reached through `withLock`, which holds
/// the mutex for the whole access, and the mutex itself lives at a stable heap address that is
/// never moved or copied.
package final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(mutex, nil)
        if result != 0 { fatalError("pthread_mutex_init failed with \(result)") }
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        let lockResult = pthread_mutex_lock(mutex)
        if lockResult != 0 { fatalError("pthread_mutex_lock failed with \(lockResult)") }
        defer {
            let unlockResult = pthread_mutex_unlock(mutex)
            if unlockResult != 0 { fatalError("pthread_mutex_unlock failed with \(unlockResult)") }
        }
        return try body(&value)
    }
}
