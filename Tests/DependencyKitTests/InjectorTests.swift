import DependencyKit
import Testing

@testable import DependencyKit

private protocol CountedDependency: DependencyContainer {}
private final class CountedCore: DependencyContainer, CountedDependency, @unchecked Sendable {
    let serial: Int
    init(serial: Int) {
        self.serial = serial
        super.init()
    }
}
private let madeDefaults = Locked(0)
private let countedInjector = Injector<any CountedDependency> {
    CountedCore(
        serial: madeDefaults.withLock { count in
            count += 1
            return count
        })
}

private func serial(_ container: any CountedDependency) -> Int { (container as! CountedCore).serial }

@Suite(.serialized)
struct InjectorTests {
    @Test func defaultIsMadeOnceEvenWhenManyThreadsReadFirst() async {
        let storage = Injector<any CountedDependency> {
            CountedCore(
                serial: madeDefaults.withLock { count in
                    count += 1
                    return count
                })
        }
        let before = madeDefaults.withLock { $0 }
        let serials = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<64 { group.addTask { serial(storage.current) } }
            return await group.reduce(into: Set<Int>()) { $0.insert($1) }
        }
        #expect(serials.count == 1)
        let made = madeDefaults.withLock { $0 } - before
        // The factory may run more than once when reads race, but only one result is ever served.
        #expect(made >= 1)
        #expect(serial(storage.current) == serials.first)
    }

    @Test func installReplacesTheGlobalAndResetMakesANewDefault() {
        let installed = CountedCore(serial: -1)
        countedInjector.dependencies = installed
        #expect(countedInjector.dependencies === installed)
        countedInjector.reset()
        let afterReset = countedInjector.dependencies
        #expect(afterReset !== installed)
        #expect(serial(afterReset) > 0)
        #expect(countedInjector.dependencies === afterReset)
    }

    @Test func setDefaultChangesWhatResetInstalls() {
        let storage = Injector<any CountedDependency> { CountedCore(serial: 1) }
        storage.setDefault { CountedCore(serial: 42) }
        #expect(serial(storage.current) == 42)
        storage.install(CountedCore(serial: 7))
        #expect(serial(storage.current) == 7)
        storage.reset()
        #expect(serial(storage.current) == 42)
    }

    @Test func storagesOfDifferentContainersAreIndependent() {
        withDependencies(OtherCore(name: "scoped")) {
            #expect(otherInjector.dependencies.resolveName() == "scoped")
            #expect(toyInjector.scopedContainer() == nil)
        }
        #expect(otherInjector.dependencies.resolveName() == "default")
    }
}
