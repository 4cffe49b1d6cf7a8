import Dispatch
import Testing

@testable import DependencyKit

extension DependencyScope {
    fileprivate static let visit = DependencyScope("visit")
    fileprivate static let tenant = DependencyScope()
}

/// A container whose resolves hold their instances in named scopes.
private final class ScopedCore: DependencyContainer, @unchecked Sendable {
    let made = Counter()
    let pauses: Bool

    init(pausesDuringCreation: Bool = false) {
        pauses = pausesDuringCreation
        super.init()
    }

    func resolveVisitStore() -> Store {
        scoped(.visit) {
            if pauses { pauseBriefly() }
            return Store(serial: made.increment())
        }
    }

    func resolveTenantStore() -> Store { scoped(.tenant) { Store(serial: made.increment()) } }
    func resolveSharedStore() -> Store { shared { Store(serial: made.increment()) } }
    func resolveVisitWorker() -> Worker { scoped(.visit) { Worker(store: resolveVisitStore()) } }

    func resolveAsyncVisitStore() async -> Store {
        await scoped(.visit) { () async -> Store in Store(serial: made.increment()) }
    }
}

struct ScopedInstanceTests {
    @Test func scopedResolveReturnsOneInstanceUntilTheScopeIsReset() {
        let container = ScopedCore()
        let first = container.resolveVisitStore()
        #expect(container.resolveVisitStore() === first)
        container.resetScope(.visit)
        let second = container.resolveVisitStore()
        #expect(second !== first)
        #expect(container.resolveVisitStore() === second)
        #expect(container.generation(of: .visit) == 1)
    }

    @Test func resetKeepsOtherScopesAndSharedInstances() {
        let container = ScopedCore()
        let tenant = container.resolveTenantStore()
        let shared = container.resolveSharedStore()
        let visit = container.resolveVisitStore()
        container.resetScope(.visit)
        #expect(container.resolveTenantStore() === tenant)
        #expect(container.resolveSharedStore() === shared)
        #expect(container.resolveVisitStore() !== visit)
    }

    @Test func holdersOfTheOldInstanceKeepAWorkingObject() {
        let container = ScopedCore()
        let worker = container.resolveVisitWorker()
        container.resetScope(.visit)
        #expect(worker.store.serial == 1)
        let next = container.resolveVisitWorker()
        #expect(next !== worker)
        #expect(next.store !== worker.store)
        #expect(next.store === container.resolveVisitStore())
    }

    @Test func scopesBelongToTheirContainer() {
        let one = ScopedCore()
        let other = ScopedCore()
        let mine = one.resolveVisitStore()
        #expect(other.resolveVisitStore() !== mine)
        other.resetScope(.visit)
        #expect(one.resolveVisitStore() === mine)
    }

    @Test func scopesDeclaredWithTheSameNameAreDistinct() {
        let first = DependencyScope("visit")
        let second = DependencyScope("visit")
        #expect(first != second)
        #expect(DependencyScope.visit == DependencyScope.visit)
        #expect(DependencyScope.visit.name == "visit")
        #expect(DependencyScope.tenant.name.hasPrefix("DependencyKitTests/ScopedInstanceTests.swift:"))
    }

    @Test func asyncScopedResolveIsResetToo() async {
        let container = ScopedCore()
        let first = await container.resolveAsyncVisitStore()
        #expect(await container.resolveAsyncVisitStore() === first)
        container.resetScope(.visit)
        #expect(await container.resolveAsyncVisitStore() !== first)
    }

    @Test func scopedResolutionIsTracedAsScoped() {
        let container = ScopedCore()
        let (_, graph) = Diagnostics.trace { container.resolveVisitWorker() }
        #expect(graph.nodes.map(\.lifetime) == [.scoped, .scoped])
    }

    @Test func threadsRacingResetsGetOneInstancePerGeneration() {
        let container = ScopedCore(pausesDuringCreation: true)
        // Which instance each generation handed out, by serial: a generation that handed out two
        // different instances would show up as two serials for one generation.
        let seen = Locked([Int: Set<Int>]())
        let group = DispatchGroup()
        for index in 0..<64 {
            DispatchQueue.global().async(group: group) {
                if index.isMultiple(of: 8) {
                    container.resetScope(.visit)
                    return
                }
                for _ in 0..<20 {
                    let before = container.generation(of: .visit)
                    let store = container.resolveVisitStore()
                    let after = container.generation(of: .visit)
                    if before == after {
                        seen.withLock { _ = $0[before, default: []].insert(store.serial) }
                    }
                }
            }
        }
        group.wait()
        let generations = seen.withLock { $0 }
        #expect(generations.values.allSatisfy { $0.count == 1 })
        // Each instance belongs to exactly one generation.
        let serials = generations.values.flatMap { $0 }
        #expect(Set(serials).count == serials.count)
        #expect(container.made.count <= container.generation(of: .visit) + 1)
    }
}
