import Dispatch
import Testing

@testable import DependencyKit

extension Lifetime {
    fileprivate static let visit = Lifetime("visit")
    fileprivate static let tenant = Lifetime()
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
        shared(in: .visit) {
            if pauses { pauseBriefly() }
            return Store(serial: made.increment())
        }
    }

    func resolveTenantStore() -> Store { shared(in: .tenant) { Store(serial: made.increment()) } }
    func resolveSharedStore() -> Store { shared { Store(serial: made.increment()) } }
    func resolveVisitWorker() -> Worker { shared(in: .visit) { Worker(store: resolveVisitStore()) } }

    func resolveAsyncVisitStore() async -> Store {
        await shared(in: .visit) { () async -> Store in Store(serial: made.increment()) }
    }
}

struct ScopedInstanceTests {
    @Test func scopedResolveReturnsOneInstanceUntilTheScopeIsReset() {
        let container = ScopedCore()
        let first = container.resolveVisitStore()
        #expect(container.resolveVisitStore() === first)
        container.reset(.visit)
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
        container.reset(.visit)
        #expect(container.resolveTenantStore() === tenant)
        #expect(container.resolveSharedStore() === shared)
        #expect(container.resolveVisitStore() !== visit)
    }

    @Test func holdersOfTheOldInstanceKeepAWorkingObject() {
        let container = ScopedCore()
        let worker = container.resolveVisitWorker()
        container.reset(.visit)
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
        other.reset(.visit)
        #expect(one.resolveVisitStore() === mine)
    }

    @Test func scopesDeclaredWithTheSameNameAreDistinct() {
        let first = Lifetime("visit")
        let second = Lifetime("visit")
        #expect(first != second)
        #expect(Lifetime.visit == Lifetime.visit)
        #expect(Lifetime.visit.name == "visit")
        #expect(Lifetime.tenant.name.hasPrefix("DependencyKitTests/ScopedInstanceTests.swift:"))
    }

    @Test func asyncScopedResolveIsResetToo() async {
        let container = ScopedCore()
        let first = await container.resolveAsyncVisitStore()
        #expect(await container.resolveAsyncVisitStore() === first)
        container.reset(.visit)
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
                    container.reset(.visit)
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

extension Lifetime {
    fileprivate static let race = Lifetime("race")
}

/// An instance that says whether it is still alive and whole: a resolve that handed out a released
/// or half-made instance would read a wrong `canary` (and ThreadSanitizer would report the access).
private final class Tracked: Sendable {
    static let wholeCanary = 0x5EED_CAFE
    let serial: Int
    let canary: Int
    let released: Counter

    init(serial: Int, released: Counter) {
        self.serial = serial
        self.released = released
        canary = Self.wholeCanary
    }

    deinit { released.increment() }
}

/// A container whose scoped resolves count what they make and what is released.
private final class RacingCore: DependencyContainer, @unchecked Sendable {
    let made = Counter()
    let released = Counter()

    func resolveTracked() -> Tracked {
        shared(in: .race, fileID: "Race.swift", line: 1, column: 1) {
            Tracked(serial: made.increment(), released: released)
        }
    }

    /// The cell of ``resolveTracked()``, once it has been resolved.
    var trackedCell: ScopedCell<Tracked>? {
        let key = SharedKey(
            fileID: "Race.swift",
            line: 1,
            column: 1,
            type: Tracked.self,
            kind: .scoped,
            scope: Lifetime.race.id
        )
        return sharedInstances.scopeTable().existingCell(for: key, as: ScopedCell<Tracked>.self)
    }

    func resolveAsyncTracked() async -> Tracked {
        await shared(in: .race) { () async -> Tracked in
            await Task.yield()
            return Tracked(serial: made.increment(), released: released)
        }
    }

    /// One call site whose scope is chosen by its caller, as a helper that forwards it would.
    func resolveStore(in scope: Lifetime) -> Store { shared(in: scope) { Store(serial: made.increment()) } }

    /// A counted instance in a scope chosen by the caller: a scope made at run time.
    func resolveTracked(in scope: Lifetime) -> Tracked {
        shared(in: scope) { Tracked(serial: made.increment(), released: released) }
    }

    func resolveAsyncTracked(in scope: Lifetime) async -> Tracked {
        await shared(in: scope) { () async -> Tracked in Tracked(serial: made.increment(), released: released) }
    }

    /// How many scope slots and scoped cells the container keeps.
    var scopedEntries: Int { sharedInstances.scopeTable().footprint.entries }
}

/// Resets racing the lock-free read of a scoped instance. Run under `--sanitize=thread`.
struct ScopedInstanceResetRaceTests {
    @Test func resetsRacingResolvesHandOutOnlyWholeLiveInstancesOnePerGeneration() {
        let container = RacingCore()
        let resets = 300
        let seen = Locked([Int: Set<Int>]())
        let broken = Counter()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            for _ in 0..<resets {
                container.reset(.race)
                PlatformLock.yieldProcessor()
            }
        }
        for _ in 0..<6 {
            DispatchQueue.global().async(group: group) {
                var mine: [Int: Set<Int>] = [:]
                for _ in 0..<3_000 {
                    let before = container.generation(of: .race)
                    let tracked = container.resolveTracked()
                    let after = container.generation(of: .race)
                    if tracked.canary != Tracked.wholeCanary { broken.increment() }
                    if before == after { mine[before, default: []].insert(tracked.serial) }
                }
                seen.withLock { seen in seen.merge(mine) { $0.union($1) } }
            }
        }
        group.wait()
        #expect(broken.count == 0)
        let generations = seen.withLock { $0 }
        #expect(generations.values.allSatisfy { $0.count == 1 })
        #expect(container.made.count <= resets + 1)
        // Once no one holds them, every instance a reset ended is released.
        container.reset(.race)
        #expect(container.released.count == container.made.count)
    }

    @Test func asyncResolvesRacingResetsGetOneInstancePerGenerationAndReleaseTheOldOnes() async {
        let container = RacingCore()
        let resetter = Task.detached {
            for _ in 0..<100 {
                container.reset(.race)
                await Task.yield()
            }
        }
        let broken = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var broken = 0
                    for _ in 0..<500 where await container.resolveAsyncTracked().canary != Tracked.wholeCanary {
                        broken += 1
                    }
                    return broken
                }
            }
            return await group.reduce(0, +)
        }
        await resetter.value
        #expect(broken == 0)
        #expect(container.made.count <= 101)
        container.reset(.race)
        #expect(container.released.count == container.made.count)
    }

    @Test func aResetWaitsForAReaderInsideItsWindowBeforeReleasingTheInstance() throws {
        let container = RacingCore()
        weak let ended = container.resolveTracked()
        let cell = try #require(container.trackedCell)
        let resetDone = AtomicWord(0)
        let group = DispatchGroup()
        let (aliveWhileRead, resetReturnedWhileRead) = cell.read { raw -> (Bool, Bool) in
            DispatchQueue.global().async(group: group) {
                container.reset(.race)
                resetDone.storeRelease(1)
            }
            // Give the reset every chance to finish: it must not, while this window is open.
            for _ in 0..<50 { pauseBriefly() }
            let box = ScopedCell<Tracked>.box(at: raw)
            return (
                box._withUnsafeGuaranteedRef { $0.value.canary == Tracked.wholeCanary }, resetDone.loadAcquire() != 0
            )
        }
        #expect(aliveWhileRead)
        #expect(!resetReturnedWhileRead)
        group.wait()
        #expect(ended == nil)
        #expect(container.released.count == 1)
    }

    @Test func aCreationThatRacedAResetIsNotHandedOutInTheNextGeneration() {
        let container = GatedScopedCore()
        let raced = Locked<Store?>(nil)
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            let store = container.resolveGated()
            raced.withLock { $0 = store }
        }
        container.creating.wait()
        container.reset(.race)
        container.proceed.signal()
        group.wait()
        let next = container.resolveGated()
        #expect(next !== raced.withLock { $0 })
        #expect(container.resolveGated() === next)
        #expect(container.made.count == 2)
    }

    @Test func anInstanceEndedByAResetIsReleasedWhenItsLastHolderLetsGo() {
        let container = RacingCore()
        weak var ended: Tracked?
        do {
            let held = container.resolveTracked()
            ended = held
            container.reset(.race)
            #expect(ended != nil)
            #expect(container.resolveTracked() !== held)
        }
        #expect(ended == nil)
        #expect(container.released.count == 1)
    }

    @Test func oneCallSiteKeepsOneInstancePerScope() {
        let container = RacingCore()
        let visit = container.resolveStore(in: .visit)
        let tenant = container.resolveStore(in: .tenant)
        #expect(visit !== tenant)
        #expect(container.resolveStore(in: .visit) === visit)
        container.reset(.visit)
        #expect(container.resolveStore(in: .visit) !== visit)
        #expect(container.resolveStore(in: .tenant) === tenant)
    }

    @Test func aCycleThroughAScopedInstanceIsNamedWithItsGeneration() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = SelfScopedCore()
            container.reset(.race)
            _ = container.resolveLoop()
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("in scope race (generation 1) of SelfScopedCore"), "\(output)")
    }
}

/// A scoped instance whose creation asks for itself.
private final class SelfScopedCore: DependencyContainer, @unchecked Sendable {
    func resolveLoop() -> Store { shared(in: .race) { Store(serial: resolveLoop().serial) } }
}

/// A scoped instance whose first creation waits, so that a test can reset the scope meanwhile.
private final class GatedScopedCore: DependencyContainer, @unchecked Sendable {
    let made = Counter()
    /// Signalled when the first creation has begun.
    let creating = DispatchSemaphore(value: 0)
    /// Lets the first creation finish.
    let proceed = DispatchSemaphore(value: 0)

    func resolveGated() -> Store {
        shared(in: .race) {
            let serial = made.increment()
            if serial == 1 {
                creating.signal()
                proceed.wait()
            }
            return Store(serial: serial)
        }
    }
}

/// Scopes made at run time, one per document or tenant, and let go.
struct RunTimeScopeTests {
    /// Entries a container keeps before it sweeps ended scopes (`ScopeTable.minimumSweep`), plus the
    /// one being inserted: far below the 20,000 the scopes below would leave if nothing were freed.
    static let sweptBound = 64 + 1

    @Test func tenThousandEndedScopesLeaveNoSlotsBehind() {
        let container = RacingCore()
        for _ in 0..<10_000 {
            let document = Lifetime("document")
            _ = container.resolveTracked(in: document)
        }
        #expect(container.scopedEntries <= Self.sweptBound, "\(container.sharedInstances.scopeTable().footprint)")
        #expect(container.sharedInstances.scopeTable().footprint.slots <= 256)
    }

    @Test func instancesOfEndedScopesAreReleased() async {
        let container = RacingCore()
        for _ in 0..<2_000 {
            let document = Lifetime("document")
            _ = container.resolveTracked(in: document)
            _ = await container.resolveAsyncTracked(in: document)
        }
        // Every instance but those of the scopes since the last sweep is gone.
        #expect(container.made.count == 4_000)
        #expect(container.released.count >= 4_000 - Self.sweptBound)
    }

    @Test func aLiveScopeKeepsItsInstancesWhileOthersEnd() {
        let container = RacingCore()
        let kept = Lifetime("kept")
        let copy = kept
        let instance = container.resolveTracked(in: kept)
        for _ in 0..<5_000 {
            _ = container.resolveTracked(in: Lifetime("document"))
        }
        #expect(container.resolveTracked(in: copy) === instance)
        #expect(container.resolveTracked(in: .race) === container.resolveTracked(in: .race))
        #expect(container.scopedEntries <= Self.sweptBound + 4)
    }

    @Test func aRunTimeScopeResetsAndCountsGenerations() {
        let container = RacingCore()
        let document = Lifetime("document")
        let first = container.resolveTracked(in: document)
        #expect(container.resolveTracked(in: document) === first)
        container.reset(document)
        #expect(container.generation(of: document) == 1)
        let second = container.resolveTracked(in: document)
        #expect(second !== first)
        for _ in 0..<1_000 { _ = container.resolveTracked(in: Lifetime()) }
        #expect(container.resolveTracked(in: document) === second)
        #expect(container.generation(of: document) == 1)
    }

    @Test func aScopeOutlivesTheValueItWasMadeAsWhileACopyLives() {
        let container = RacingCore()
        var copy: Lifetime?
        weak var instance: Tracked?
        do {
            let document = Lifetime("document")
            copy = document
            instance = container.resolveTracked(in: document)
        }
        for _ in 0..<1_000 { _ = container.resolveTracked(in: Lifetime()) }
        #expect(instance != nil)
        #expect(container.resolveTracked(in: copy!) === instance)
        copy = nil
        for _ in 0..<1_000 { _ = container.resolveTracked(in: Lifetime()) }
        #expect(instance == nil)
    }

    /// Run under `--sanitize=thread`: sweeps free tables and entries while other threads read them.
    @Test func threadsMakingAndDroppingScopesWhileOthersReadAndResetKeepEveryInstanceWhole() {
        let container = RacingCore()
        let broken = Counter()
        let group = DispatchGroup()
        for index in 0..<6 {
            DispatchQueue.global().async(group: group) {
                for _ in 0..<1_500 {
                    if index < 2 {
                        // The static scope, read and reset while the table is swept under it.
                        let tracked = container.resolveTracked()
                        if tracked.canary != Tracked.wholeCanary { broken.increment() }
                        if index == 0 { container.reset(.race) }
                    } else {
                        let document = Lifetime("document")
                        let first = container.resolveTracked(in: document)
                        let again = container.resolveTracked(in: document)
                        if first !== again || again.canary != Tracked.wholeCanary { broken.increment() }
                    }
                }
            }
        }
        group.wait()
        #expect(broken.count == 0)
        // The entries of the last scopes before the final sweep, and the static scope's.
        _ = container.resolveTracked(in: Lifetime())
        #expect(container.scopedEntries <= 2 * Self.sweptBound)
    }
}
