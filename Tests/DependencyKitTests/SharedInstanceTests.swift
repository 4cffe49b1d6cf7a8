import Dispatch
import Testing

@testable import DependencyKit

struct SharedInstanceTests {
    @Test func sharedResolveReturnsTheSameInstanceEveryTime() {
        let container = LifetimeCore()
        let first = container.resolveStore()
        let second = container.resolveStore()
        #expect(first === second)
        #expect(container.stores.count == 1)
    }

    @Test func freshResolvesStayFresh() {
        let container = LifetimeCore()
        #expect(container.resolveFreshStore() !== container.resolveFreshStore())
        #expect(container.stores.count == 2)
    }

    @Test func manyTasksAskingFirstTogetherCreateExactlyOneInstance() async {
        let container = LifetimeCore(pausesDuringCreation: true)
        let identities = await withTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<128 { group.addTask { ObjectIdentifier(container.resolveStore()) } }
            return await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(identities.count == 1)
        #expect(container.stores.count == 1)
    }

    @Test func manyThreadsAskingFirstTogetherCreateExactlyOneInstance() {
        let container = LifetimeCore(pausesDuringCreation: true)
        let seen = Locked(Set<ObjectIdentifier>())
        let group = DispatchGroup()
        for _ in 0..<128 {
            DispatchQueue.global().async(group: group) {
                let identity = ObjectIdentifier(container.resolveWorker())
                seen.withLock { _ = $0.insert(identity) }
            }
        }
        group.wait()
        #expect(seen.withLock { $0.count } == 1)
        #expect(container.workers.count == 1)
        #expect(container.stores.count == 1)
    }

    @Test func sharedCreationMayResolveAnotherSharedInstanceOfTheSameContainer() {
        let container = LifetimeCore()
        let worker = container.resolveWorker()
        #expect(worker.store === container.resolveStore())
        #expect(container.resolveWorker() === worker)
        #expect(container.stores.count == 1)
    }

    @Test func nestedSharedCreationUnderContentionNeitherDeadlocksNorDuplicates() async {
        let container = LifetimeCore(pausesDuringCreation: true)
        let pairs = await withTaskGroup(of: (ObjectIdentifier, ObjectIdentifier).self) { group in
            for index in 0..<128 {
                group.addTask {
                    // Half the tasks start with the inner instance, half with the outer one.
                    if index.isMultiple(of: 2) {
                        let store = container.resolveStore()
                        return (ObjectIdentifier(container.resolveWorker().store), ObjectIdentifier(store))
                    }
                    let worker = container.resolveWorker()
                    return (ObjectIdentifier(worker.store), ObjectIdentifier(container.resolveStore()))
                }
            }
            return await group.reduce(into: [(ObjectIdentifier, ObjectIdentifier)]()) { $0.append($1) }
        }
        #expect(pairs.allSatisfy { $0.0 == $0.1 })
        #expect(Set(pairs.map(\.0)).count == 1)
        #expect(container.stores.count == 1)
        #expect(container.workers.count == 1)
    }

    @Test func twoResolvesOfTheSameTypeKeepTheirOwnInstances() {
        let container = LifetimeCore()
        let store = container.resolveStore()
        let other = container.resolveOtherStore()
        #expect(store !== other)
        #expect(container.resolveOtherStore() === other)
    }

    @Test func eachContainerHasItsOwnInstances() {
        let first = LifetimeCore()
        let second = LifetimeCore()
        #expect(first.resolveStore() !== second.resolveStore())
        #expect(first.resolveStore() === first.resolveStore())
    }

    @Test func scopedContainersStartWithNewInstances() {
        let outer = withDependencies(LifetimeCore()) { lifetimeInjector.dependencies.resolveStore() }
        let inner = withDependencies(LifetimeCore()) { lifetimeInjector.dependencies.resolveStore() }
        #expect(outer !== inner)
    }

    @Test func subclassOverrideWithItsOwnSharedGetsItsOwnInstanceAndInheritsTheRest() {
        let container = LifetimeOverride()
        let other = container.resolveOtherStore()
        #expect(other.serial == -1)
        #expect(container.resolveOtherStore() === other)
        #expect(container.resolveWorker().store === container.resolveStore())
    }

    @Test func failedCreationIsNotCachedAndTheNextCallCreates() throws {
        let container = LifetimeCore()
        container.failuresLeft.withLock { $0 = 1 }
        #expect(throws: CreationFailed.self) { try container.resolveFlakyStore() }
        let store = try container.resolveFlakyStore()
        #expect(try container.resolveFlakyStore() === store)
        #expect(container.stores.count == 1)
    }

    @Test func sharedInstancesDieWithTheirContainer() {
        weak var store: Store?
        do {
            let container = LifetimeCore()
            store = container.resolveStore()
            #expect(store != nil)
        }
        #expect(store == nil)
    }

    @Test func weaklySharedInstanceIsReusedWhileHeldAndRecreatedAfterRelease() {
        let container = LifetimeCore()
        var held: (any Greeting)? = container.resolveGreeting()
        #expect(container.resolveGreeting() === held)
        #expect(container.greetings.count == 1)

        weak let released = held
        held = nil
        #expect(released == nil)

        let next = container.resolveGreeting()
        #expect(container.greetings.count == 2)
        #expect(container.resolveGreeting() === next)
    }

    @Test func weaklySharedInstanceIsCreatedOnceUnderContention() async {
        let container = LifetimeCore(pausesDuringCreation: true)
        let greetings = await withTaskGroup(of: (any Greeting).self) { group in
            for _ in 0..<128 { group.addTask { container.resolveGreeting() } }
            return await group.reduce(into: [any Greeting]()) { $0.append($1) }
        }
        // Every task still holds its result, so they must all be the one instance.
        #expect(Set(greetings.map { ObjectIdentifier($0) }).count == 1)
        #expect(container.greetings.count == 1)
    }

    @Test func weaklySharingAValueTypeStopsWithAMessage() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class ValueContainer: DependencyContainer, @unchecked Sendable {
                func resolveNumber() -> Int { weakShared { 42 } }
            }
            _ = ValueContainer().resolveNumber()
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("weakShared needs a class instance, but resolveNumber() returned a value of type Int"))
    }

    @Test func installingANewGlobalContainerStartsNewInstances() {
        let first = LifetimeCore()
        lifetimeInjector.dependencies = first
        let before = lifetimeInjector.global.resolveStore()
        lifetimeInjector.dependencies = LifetimeCore()
        let after = lifetimeInjector.global.resolveStore()
        #expect(before === first.resolveStore())
        #expect(after !== before)
    }

    @Test func asyncSharedInstanceIsCreatedOnceUnderContention() async {
        let container = LifetimeCore()
        let identities = await withTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<128 { group.addTask { ObjectIdentifier(await container.resolveLoadedStore()) } }
            return await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(identities.count == 1)
        #expect(container.stores.count == 1)
    }

    @Test func asyncSharedCreationMayAwaitAnotherSharedInstance() async {
        let container = LifetimeCore()
        let workers = await withTaskGroup(of: Worker.self) { group in
            for _ in 0..<64 { group.addTask { await container.resolveLoadedWorker() } }
            return await group.reduce(into: [Worker]()) { $0.append($1) }
        }
        let store = await container.resolveLoadedStore()
        #expect(workers.allSatisfy { $0 === workers[0] && $0.store === store })
        #expect(container.workers.count == 1)
        #expect(container.stores.count == 1)
    }

    @Test func sharedKeysDifferByCallSiteAndType() {
        let here = SharedKey(fileID: "M/F.swift", line: 1, column: 5, type: Store.self, kind: .strong)
        #expect(here.matches(SharedKey(fileID: "M/F.swift", line: 1, column: 5, type: Store.self, kind: .strong)))
        #expect(!here.matches(SharedKey(fileID: "M/F.swift", line: 2, column: 5, type: Store.self, kind: .strong)))
        #expect(!here.matches(SharedKey(fileID: "M/F.swift", line: 1, column: 6, type: Store.self, kind: .strong)))
        #expect(!here.matches(SharedKey(fileID: "M/G.swift", line: 1, column: 5, type: Store.self, kind: .strong)))
        #expect(!here.matches(SharedKey(fileID: "M/F.swift", line: 1, column: 5, type: Worker.self, kind: .strong)))
    }
}
