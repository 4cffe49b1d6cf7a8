internal import _DependencyKitShims

#if canImport(Darwin)
    import Darwin
#elseif os(Windows)
    import ucrt
    import WinSDK
#elseif canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Android)
    @preconcurrency import Android
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Bionic)
    @preconcurrency import Bionic
#elseif canImport(WASILibc)
    @preconcurrency import WASILibc
    #if canImport(wasi_pthread)
        import wasi_pthread
    #endif
#else
    #error("DependencyKit's lock does not know this platform's C library.")
#endif

/// The module's one platform mutex, with a condition variable for threads that wait on it.
///
/// A pthread mutex where there are pthreads, an `SRWLOCK` with a `CONDITION_VARIABLE` on Windows,
/// nothing on single-threaded WebAssembly — the branches swift-log's and swift-argument-parser's
/// locks carry. ``Locked`` and the once-cells are built on it; nothing else touches a mutex.
/// `Synchronization.Mutex` would do, but needs macOS 15 / iOS 18, and ThreadSanitizer on Linux
/// misreads it.
///
/// The lock lives at a stable heap address, allocated here and freed when its owner is: it is
/// noncopyable, so exactly one value owns the allocation and its `deinit` frees it. It is a value only
/// so that the owner keeps one stored property. A failing lock call is a broken invariant of this
/// module, so it stops the process, with its message, in every build.
@usableFromInline
struct PlatformLock: ~Copyable {
    #if os(Windows)
        private let mutex: UnsafeMutablePointer<SRWLOCK>
        private let condition: UnsafeMutablePointer<CONDITION_VARIABLE>
    #elseif _runtime(_multithreaded)
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>
        private let condition: UnsafeMutablePointer<pthread_cond_t>?
    #endif

    /// Makes a lock; with `waitable`, also the condition variable that ``wait(milliseconds:)``
    /// and ``broadcast()`` use.
    init(waitable: Bool = false) {
        #if os(Windows)
            mutex = .allocate(capacity: 1)
            InitializeSRWLock(mutex)
            condition = .allocate(capacity: 1)
            InitializeConditionVariable(condition)
        #elseif _runtime(_multithreaded)
            // `pthread_mutex_init` and `pthread_cond_init` initialise the memory they are given.
            mutex = .allocate(capacity: 1)
            let mutexResult = pthread_mutex_init(mutex, nil)
            if mutexResult != 0 { fatalError("pthread_mutex_init failed with \(mutexResult)") }
            condition = waitable ? .allocate(capacity: 1) : nil
            if let condition {
                let conditionResult = pthread_cond_init(condition, nil)
                if conditionResult != 0 { fatalError("pthread_cond_init failed with \(conditionResult)") }
            }
        #endif
    }

    deinit {
        #if os(Windows)
            mutex.deallocate()
            condition.deallocate()
        #elseif _runtime(_multithreaded)
            if let condition {
                // The C structs are trivial: destroyed, they need no deinitialising.
                pthread_cond_destroy(condition)
                condition.deallocate()
            }
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        #endif
    }

    @usableFromInline
    func lock() {
        #if os(Windows)
            AcquireSRWLockExclusive(mutex)
        #elseif _runtime(_multithreaded)
            let result = pthread_mutex_lock(mutex)
            if result != 0 { fatalError("pthread_mutex_lock failed with \(result)") }
        #endif
    }

    @usableFromInline
    func unlock() {
        #if os(Windows)
            ReleaseSRWLockExclusive(mutex)
        #elseif _runtime(_multithreaded)
            let result = pthread_mutex_unlock(mutex)
            if result != 0 { fatalError("pthread_mutex_unlock failed with \(result)") }
        #endif
    }

    /// Releases the lock, sleeps until ``broadcast()`` or for at most `milliseconds`, and takes
    /// the lock again. Callers re-check their condition: a wake-up may be spurious.
    func wait(milliseconds: Int) {
        #if os(Windows)
            if !SleepConditionVariableSRW(condition, mutex, DWORD(max(0, milliseconds)), 0) {
                let error = GetLastError()
                if error != ERROR_TIMEOUT { fatalError("SleepConditionVariableSRW failed with \(error)") }
            }
        #elseif _runtime(_multithreaded)
            guard let condition else { fatalError("PlatformLock.wait on a lock made without waitable: true") }
            // The absolute `CLOCK_REALTIME` time `milliseconds` from now, as `pthread_cond_timedwait`
            // expects it. A jump of the wall clock only wakes the waiter early or late; callers measure
            // the wait on the monotonic clock.
            var deadline = timespec()
            clock_gettime(CLOCK_REALTIME, &deadline)
            let nanoseconds = Int(deadline.tv_nsec) + (milliseconds % 1_000) * 1_000_000
            deadline.tv_sec += .init(milliseconds / 1_000 + nanoseconds / 1_000_000_000)
            deadline.tv_nsec = .init(nanoseconds % 1_000_000_000)
            let result = pthread_cond_timedwait(condition, mutex, &deadline)
            if result != 0 && result != ETIMEDOUT { fatalError("pthread_cond_timedwait failed with \(result)") }
        #else
            // One thread: nobody else can be creating what this thread waits for.
            fatalError("PlatformLock.wait on a single-threaded platform")
        #endif
    }

    /// Wakes every thread in ``wait(milliseconds:)``.
    func broadcast() {
        #if os(Windows)
            WakeAllConditionVariable(condition)
        #elseif _runtime(_multithreaded)
            if let condition { pthread_cond_broadcast(condition) }
        #endif
    }

    /// Gives the processor to another ready thread, for a wait that spins on a word another thread
    /// is about to change.
    static func yieldProcessor() {
        #if os(Windows)
            _ = SwitchToThread()
        #elseif _runtime(_multithreaded)
            sched_yield()
        #endif
    }
}
