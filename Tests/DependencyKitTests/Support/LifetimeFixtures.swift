import DependencyKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Counts how many times something was made, from any thread.
final class Counter: Sendable {
    private let value = Locked(0)

    /// Adds one and returns the new count.
    @discardableResult
    func increment() -> Int {
        value.withLock { count in
            count += 1
            return count
        }
    }

    var count: Int { value.withLock { $0 } }
}

/// A stateful service: identity matters, so it is a class.
final class Store: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

/// A service built on another shared service.
final class Worker: Sendable {
    let store: Store
    init(store: Store) { self.store = store }
}

protocol Greeting: AnyObject, Sendable {
    var text: String { get }
}

final class EnglishGreeting: Greeting {
    let text = "hello"
}

struct CreationFailed: Error {}

/// Lets the other callers pile up on a cell while its instance is being created, without
/// asserting anything about time.
func pauseBriefly() {
    usleep(2_000)
}

/// A container declared with the engine whose resolves exercise every shared-instance form.
protocol LifetimeDependency: DependencyContainer {
    func resolveStore() -> Store
    func resolveOtherStore() -> Store
    func resolveWorker() -> Worker
    func resolveFreshStore() -> Store
    func resolveGreeting() -> any Greeting
}

class LifetimeCore: DependencyContainer, LifetimeDependency, @unchecked Sendable {
    let stores = Counter()
    let otherStores = Counter()
    let workers = Counter()
    let greetings = Counter()
    let failuresLeft = Locked(0)
    let pausesDuringCreation: Bool

    init(pausesDuringCreation: Bool = false) {
        self.pausesDuringCreation = pausesDuringCreation
        super.init()
    }

    func resolveStore() -> Store {
        shared {
            if pausesDuringCreation { pauseBriefly() }
            return Store(serial: stores.increment())
        }
    }

    func resolveOtherStore() -> Store {
        shared { Store(serial: otherStores.increment()) }
    }

    func resolveWorker() -> Worker {
        shared {
            workers.increment()
            if pausesDuringCreation { pauseBriefly() }
            return Worker(store: resolveStore())
        }
    }

    func resolveFreshStore() -> Store {
        Store(serial: stores.increment())
    }

    func resolveGreeting() -> any Greeting {
        weakShared {
            greetings.increment()
            if pausesDuringCreation { pauseBriefly() }
            return EnglishGreeting()
        }
    }

    func resolveFlakyStore() throws -> Store {
        try shared {
            let shouldFail = failuresLeft.withLock { left in
                defer { left = max(0, left - 1) }
                return left > 0
            }
            if shouldFail { throw CreationFailed() }
            return Store(serial: stores.increment())
        }
    }

    func resolveLoadedStore() async -> Store {
        await shared {
            await Task.yield()
            return Store(serial: stores.increment())
        }
    }

    func resolveLoadedWorker() async -> Worker {
        await shared {
            workers.increment()
            await Task.yield()
            return Worker(store: await resolveLoadedStore())
        }
    }
}

/// Overrides one shared resolve with its own `shared`, and inherits the others.
final class LifetimeOverride: LifetimeCore, @unchecked Sendable {
    override func resolveOtherStore() -> Store {
        shared { Store(serial: -otherStores.increment()) }
    }
}

let lifetimeInjector = Injector<any LifetimeDependency> { LifetimeCore() }
