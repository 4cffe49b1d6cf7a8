import Foundation
import Testing

@testable import DependencyKit

// The rule of Writing Tests → "What an override promises", one test per way a build can hide what it
// depends on: resolving first through another resolve, lazily, in a task, on a branch, in an async
// lifetime, in a graph begun before the scope, and a reset inside the scope. Each test is written the
// way an app would write it.

protocol TimeDependency: DependencyContainer {
    func resolveClock() -> Int
    func resolveValue() -> Int
    func resolveGreeter() -> Stamp
    func resolveSession() -> Stamp
    func resolveAsyncSession() async -> Stamp
    func resolveLazyReporter() -> LazyReporter
    func resolveTaskReporter() -> TaskReporter
    func resolveSometimesTimed() -> Stamp
    func resolveDraft() -> Stamp
    func resolveScreen() -> Screen
    func resolveStore() -> ItemStore
    func resolveTitle() -> String
}

/// A class, so that identity shows which instance was served.
final class Stamp: Sendable {
    let hour: Int
    init(hour: Int) { self.hour = hour }
}

/// Reads the clock the first time it is asked, through a closure over the container.
final class LazyReporter: Sendable {
    private let clock: @Sendable () -> Int
    private let hour = Locked<Int?>(nil)

    init(clock: @escaping @Sendable () -> Int) { self.clock = clock }

    var reportedHour: Int {
        if let known = hour.withLock({ $0 }) { return known }
        let read = clock()
        hour.withLock { $0 = read }
        return read
    }
}

/// Reads the clock in a task its builder starts.
final class TaskReporter: Sendable {
    let reading: Task<Int, Never>
    init(reading: Task<Int, Never>) { self.reading = reading }
}

struct Screen: Sendable {
    let before: Stamp
    let inside: Stamp
}

/// A shared store a test writes to.
final class ItemStore: Sendable {
    private let storage = Locked<[String]>([])
    var items: [String] { storage.withLock { $0 } }
    func add(_ item: String) { storage.withLock { $0.append(item) } }
}

extension Lifetime {
    static let timeSession = Lifetime("time session")
}

final class CoreTime: DependencyContainer, TimeDependency, @unchecked Sendable {
    let production = RouteRecorder()
    /// How many times each builder ran.
    let builds = RouteRecorder()
    private let sometimesCalls = AtomicWord(0)

    func resolveClock() -> Int {
        live {
            production.note("clock")
            return 9
        }
    }
    func resolveValue() -> Int { fresh { resolveClock() + 1 } }
    func resolveGreeter() -> Stamp {
        shared {
            builds.note("greeter")
            return Stamp(hour: resolveValue())
        }
    }
    func resolveSession() -> Stamp { shared(in: .timeSession) { Stamp(hour: resolveClock()) } }
    func resolveAsyncSession() async -> Stamp {
        await shared(in: .timeSession) { () async -> Stamp in
            await Task.yield()
            return Stamp(hour: resolveClock())
        }
    }
    func resolveLazyReporter() -> LazyReporter { shared { LazyReporter(clock: { self.resolveClock() }) } }
    func resolveTaskReporter() -> TaskReporter { shared { TaskReporter(reading: Task { self.resolveClock() }) } }
    /// Reads the clock on every other build only: the first, the third…
    func resolveSometimesTimed() -> Stamp {
        shared { sometimesCalls.add(1) % 2 == 0 ? Stamp(hour: resolveClock()) : Stamp(hour: -1) }
    }
    func resolveDraft() -> Stamp { perGraph { Stamp(hour: resolveClock()) } }
    /// One graph: a draft, then an override scope begun inside the graph that resolves the draft again.
    func resolveScreen() -> Screen {
        fresh {
            let before = resolveDraft()
            let inside = timeInjector.withOverrides(.override({ $0.resolveClock() }, with: 23)) {
                timeInjector.dependencies.resolveDraft()
            }
            return Screen(before: before, inside: inside)
        }
    }
    func resolveStore() -> ItemStore {
        shared {
            builds.note("store")
            return ItemStore()
        }
    }
    func resolveTitle() -> String { fresh { "Inbox" } }
}

let timeInjector = Injector<any TimeDependency> { CoreTime() }

@Suite struct OverrideOwnershipTests {
    // Row 1: a relative override whose type is first resolved through another resolve.

    @Test func aRelativeOverrideFirstMetThroughAnotherResolveStillAnswersIt() {
        let container = CoreTime()
        withDependencies(container) {
            let (first, second, greeter) = timeInjector.withOverrides(.override({ $0.resolveClock() }) { $0 + 100 }) {
                (
                    timeInjector.dependencies.resolveValue(),
                    timeInjector.dependencies.resolveValue(),
                    timeInjector.dependencies.resolveGreeter()
                )
            }
            #expect(first == 110)
            #expect(second == 110)
            #expect(greeter.hour == 110)
            // The greeter built inside stayed with the scope.
            #expect(timeInjector.dependencies.resolveGreeter().hour == 10)
            #expect(timeInjector.dependencies.resolveGreeter() !== greeter)
        }
    }

    @Test func aRelativeOverrideFirstMetThroughAnotherResolveIsNotReportedUnused() async {
        let unused = Locked<[String]>([])
        for _ in 0..<20 {
            let value = await withDependencies(
                CoreTime(),
                overriding: [.override({ $0.resolveClock() }) { $0 + 134 }],
                reportingUnused: { message in unused.withLock { $0.append(message) } },
                operation: { () async -> Int in timeInjector.dependencies.resolveValue() }
            )
            #expect(value == 144)
        }
        #expect(unused.withLock { $0 }.isEmpty)
    }

    // Row 2: async scoped instances.

    @Test func anAsyncScopedInstanceBuiltInsideStaysInsideAndOneMadeBeforeIsNotServedThere() async {
        let container = CoreTime()
        await withDependencies(container) {
            let before = await timeInjector.dependencies.resolveAsyncSession()
            let inside = await timeInjector.withOverrides(.override({ $0.resolveClock() }, with: 23)) {
                await timeInjector.dependencies.resolveAsyncSession()
            }
            #expect(before.hour == 9)
            #expect(inside.hour == 23)
            let after = await timeInjector.dependencies.resolveAsyncSession()
            #expect(after === before)
            #expect(after.hour == 9)
        }
        // Built inside first, on a container with none of its own yet.
        let fresh = CoreTime()
        await withDependencies(fresh) {
            let inside = await timeInjector.withOverrides(.override({ $0.resolveClock() }, with: 23)) {
                await timeInjector.dependencies.resolveAsyncSession()
            }
            #expect(inside.hour == 23)
            #expect(await timeInjector.dependencies.resolveAsyncSession().hour == 9)
        }
    }

    // Row 3: services that resolve lazily.

    @Test func aServiceThatReadsTheClockLazilyNeverCarriesAFakeOutOfTheScope() {
        let container = CoreTime()
        withDependencies(container) {
            let inside = timeInjector.withOverrides(.override({ $0.resolveClock() }, with: 23)) {
                timeInjector.dependencies.resolveLazyReporter().reportedHour
            }
            #expect(inside == 23)
            #expect(timeInjector.dependencies.resolveLazyReporter().reportedHour == 9)
            // The reverse: the container's reporter, made and used before, is not served inside.
            let again = timeInjector.withOverrides(.override({ $0.resolveClock() }, with: 7)) {
                timeInjector.dependencies.resolveLazyReporter().reportedHour
            }
            #expect(again == 7)
            #expect(timeInjector.dependencies.resolveLazyReporter().reportedHour == 9)
        }
    }

    // Where the rule stops, as Writing Tests states it: the engine cannot see whose instance resolves. An
    // instance made outside a scope that resolves lazily resolves in the scope in effect when it does.

    @Test func aServiceObtainedBeforeAScopeAndFirstUsedInsideKeepsTheFakeItReadThere() {
        let container = CoreTime()
        withDependencies(container) {
            // The container's own reporter, obtained before the scope; it has not read the clock yet.
            let reporter = timeInjector.dependencies.resolveLazyReporter()
            let inside = timeInjector.withOverrides(.override({ $0.resolveClock() }, with: 23)) {
                reporter.reportedHour
            }
            #expect(inside == 23)
            // After the scope the container still serves that instance, and it says 23 for good.
            #expect(timeInjector.dependencies.resolveLazyReporter() === reporter)
            #expect(timeInjector.dependencies.resolveLazyReporter().reportedHour == 23)
            #expect(container.production.notes.isEmpty)
        }
    }

    @Test func aServiceThatReadsTheClockInATaskNeverCarriesAFakeOutOfTheScope() async {
        let container = CoreTime()
        await withDependencies(container) {
            let inside = await timeInjector.withOverrides(.override({ $0.resolveClock() }, with: 23)) {
                await timeInjector.dependencies.resolveTaskReporter().reading.value
            }
            #expect(inside == 23)
            #expect(await timeInjector.dependencies.resolveTaskReporter().reading.value == 9)
        }
    }

    @Test func perRequestOverridesOnALongLivedContainerNeverLeakBetweenRequests() async {
        let container = CoreTime()
        await withDependencies(container) {
            await withTaskGroup(of: (Int, Int).self) { group in
                for request in 0..<200 {
                    group.addTask {
                        let hour = timeInjector.withOverrides(.override({ $0.resolveClock() }, with: request)) {
                            timeInjector.dependencies.resolveLazyReporter().reportedHour
                        }
                        return (request, hour)
                    }
                }
                for await (request, hour) in group { #expect(hour == request) }
            }
            #expect(timeInjector.dependencies.resolveLazyReporter().reportedHour == 9)
        }
    }

    // Row 4: a builder that reads the clock on some builds only.

    @Test func aBuilderThatReadsTheClockOnSomeBuildsIsNeverServedAcrossTheScope() {
        let container = CoreTime()
        withDependencies(container) {
            let outside = timeInjector.dependencies.resolveSometimesTimed()  // first build: reads the clock
            let inside = timeInjector.withOverrides(.override({ $0.resolveClock() }, with: 23)) {
                timeInjector.dependencies.resolveSometimesTimed()  // second build: does not
            }
            #expect(outside.hour == 9)
            // The scope's own build, not the container's instance with the production hour.
            #expect(inside !== outside)
            #expect(inside.hour == -1)
            let third = timeInjector.withOverrides(.override({ $0.resolveClock() }, with: 23)) {
                timeInjector.dependencies.resolveSometimesTimed()  // third build: reads the clock again
            }
            #expect(third.hour == 23)
            #expect(timeInjector.dependencies.resolveSometimesTimed() === outside)
        }
    }

    // Row 5: a per-graph instance made before a scope begun inside the same graph.

    @Test func aPerGraphInstanceMadeBeforeAScopeBegunInsideTheGraphIsNotServedInIt() {
        withDependencies(CoreTime()) {
            let screen = timeInjector.dependencies.resolveScreen()
            #expect(screen.before.hour == 9)
            #expect(screen.inside.hour == 23)
            #expect(screen.inside !== screen.before)
        }
    }

    // Row 6: a reset inside a scope.

    @Test func resetInsideAnOverrideScopeResetsTheInstancesServedThere() {
        let container = CoreTime()
        withDependencies(container) {
            let outside = timeInjector.dependencies.resolveSession()
            timeInjector.withOverrides(.override({ $0.resolveClock() }, with: 23)) {
                let first = timeInjector.dependencies.resolveSession()
                #expect(first.hour == 23)
                timeInjector.dependencies.reset(.timeSession)
                #expect(timeInjector.dependencies.generation(of: .timeSession) == 1)
                let second = timeInjector.dependencies.resolveSession()
                #expect(second !== first)
                #expect(second.hour == 23)
            }
            // The container's session was neither served inside nor reset.
            #expect(timeInjector.dependencies.resolveSession() === outside)
            #expect(container.generation(of: .timeSession) == 0)
        }
    }

    // Row 7: a nested scope starts its own instances; handing the parent's in is one line.

    @Test func aNestedScopeStartsItsOwnInstancesAndTakesTheParentsWhenHandedIn() {
        withDependencies(CoreTime(), .override({ $0.resolveClock() }, with: 23)) {
            let store = timeInjector.dependencies.resolveStore()
            store.add("milk")
            let nested = timeInjector.withOverrides(.override({ $0.resolveTitle() }, with: "Archive")) {
                timeInjector.dependencies.resolveStore()
            }
            #expect(nested !== store)
            #expect(nested.items.isEmpty)
            let handedIn = timeInjector.withOverrides(
                .override({ $0.resolveTitle() }, with: "Archive"), .override({ $0.resolveStore() }, with: store)
            ) {
                timeInjector.dependencies.resolveStore()
            }
            #expect(handedIn === store)
            #expect(handedIn.items == ["milk"])
        }
    }

    // Row 8: per-request scopes on a long-lived container each build the shared instances they use.

    @Test func eachRequestScopeBuildsTheSharedInstancesItUsesOnce() {
        let container = CoreTime()
        withDependencies(container) {
            let appStore = timeInjector.dependencies.resolveStore()
            for request in 0..<1_000 {
                timeInjector.withOverrides(.override({ $0.resolveTitle() }, with: "request \(request)")) {
                    let store = timeInjector.dependencies.resolveStore()
                    #expect(timeInjector.dependencies.resolveStore() === store)
                    #expect(store !== appStore)
                }
            }
            #expect(timeInjector.dependencies.resolveStore() === appStore)
        }
        #expect(container.builds.notes.filter { $0 == "store" }.count == 1_001)
        // The store is `shared {}`: each request's is lost with its scope, and the library says so.
        #expect(
            ScopeRebuilds.written.withLock { $0 }.contains { $0.contains("the shared ItemStore of resolveStore()") })
    }

    // Row 9: lookups do not walk the overrides of other resolves.

    @Test func tenThousandOverridesOfOneResolveLeaveAnotherOfItsTypeExact() {
        let overrides = (0..<10_000).map { hour in
            DependencyContainer.Override<any TimeDependency>.override({ $0.resolveClock() }, with: hour)
        }
        let container = CoreTime()
        let (value, clock) = withDependencies(
            container, overriding: overrides.map(DependencyContainer.Override<CoreTime>.init)
        ) {
            (timeInjector.dependencies.resolveValue(), timeInjector.dependencies.resolveClock())
        }
        #expect(clock == 9_999)
        #expect(value == 10_000)
        #expect(container.production.notes.isEmpty)
    }
}
