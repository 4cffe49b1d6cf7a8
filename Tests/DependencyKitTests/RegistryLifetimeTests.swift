import Dispatch
import Testing

@testable import DependencyKit

private protocol Service: AnyObject, Sendable {
    var serial: Int { get }
}

private final class LiveService: Service {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

private final class FallbackService: Service {
    let serial = 0
}

struct RegistryLifetimeTests {
    static func failingOnce(_ attempts: Counter) throws -> Int {
        if attempts.increment() == 1 { throw CreationFailed() }
        return 1
    }

    @Test func lazyInstanceIsMadeOnFirstResolveOnly() throws {
        let registry = DependencyRegistry()
        let made = Counter()
        registry.register((any Service).self, lazyInstance: LiveService(serial: made.increment()))
        #expect(made.count == 0)
        let first: any Service = try registry.resolve()
        let second: any Service = try registry.resolve()
        #expect(first === second)
        #expect(made.count == 1)
    }

    @Test func lazyInstanceIsMadeExactlyOnceUnderContention() {
        let registry = DependencyRegistry()
        let made = Counter()
        registry.register(
            (any Service).self,
            lazyInstance: LiveService(
                serial: {
                    pauseBriefly()
                    return made.increment()
                }())
        )
        let seen = Locked(Set<ObjectIdentifier>())
        let group = DispatchGroup()
        for _ in 0..<64 {
            DispatchQueue.global().async(group: group) {
                let service = try? registry.resolve((any Service).self)
                if let service { seen.withLock { _ = $0.insert(ObjectIdentifier(service)) } }
            }
        }
        group.wait()
        #expect(made.count == 1)
        #expect(seen.withLock { $0.count } == 1)
    }

    @Test func failedLazyInstanceIsNotKept() throws {
        let registry = DependencyRegistry()
        let attempts = Counter()
        registry.register(
            (any Service).self,
            lazyInstance: try LiveService(serial: Self.failingOnce(attempts))
        )
        #expect(throws: DependencyRegistry.Error.self) { try registry.resolve((any Service).self) }
        let service: any Service = try registry.resolve()
        #expect(service.serial == 1)
    }

    @Test func weakInstanceLivesWhileHeldAndIsRemadeWhenGone() throws {
        let registry = DependencyRegistry()
        let made = Counter()
        registry.register((any Service).self, weakInstance: LiveService(serial: made.increment()))
        var held: (any Service)? = try registry.resolve((any Service).self)
        do {
            let again: any Service = try registry.resolve()
            #expect(again === held)
        }
        held = nil
        _ = held
        let later: any Service = try registry.resolve()
        #expect(later.serial == 2)
    }

    @Test func optionalResolveFindsTheRegistrationOfTheWrappedType() throws {
        let registry = DependencyRegistry()
        let service = LiveService(serial: 7)
        registry.register((any Service).self, instance: service)
        let found: (any Service)? = try registry.resolve()
        #expect(found === service)
        let fallback: any Service = FallbackService()
        // `registry.resolve()` on the left of `??` is asked for `(any Service)?`.
        let withFallback = try? registry.resolve() ?? fallback
        #expect(withFallback === service)
    }

    @Test func optionalResolveOfAMissingRegistrationStillThrows() {
        let registry = DependencyRegistry()
        #expect(throws: DependencyRegistry.Error.notRegistered(type: "Optional<Service>", tag: nil)) {
            try registry.resolve((any Service)?.self)
        }
        let fallback: any Service = FallbackService()
        // `try?` covers the whole expression: the missing registration makes it `nil`.
        let withFallback = try? registry.resolve() ?? fallback
        #expect(withFallback == nil)
    }
}
