import Testing

@testable import DependencyKit

/// A struct consumer: reads from non-mutating methods.
struct RouteViewModel {
    @Inject(routeInjector, { $0.resolveGreeting() }) var greeting
    @Inject(routeInjector, { $0.resolveRecorder() }) var recorder

    func title() -> String { greeting }
}

final class RouteController {
    @Inject(routeInjector, { $0.resolveHour() }) var hour
}

@MainActor final class RouteScreen {
    @Inject(routeInjector, { $0.resolveGreeting() }) var greeting
}

@Suite struct InjectTests {
    @Test func aStructReadsFromTheContainerInEffectWithoutMutating() {
        let model = RouteViewModel()
        let title = withDependencies(RouteCore(), .override({ $0.resolveHour() }, with: 23)) { model.title() }
        #expect(title == "Good evening")
    }

    @Test func theValueIsResolvedOncePerOwnerAndSharedByCopies() {
        let model = RouteViewModel()
        let copy = model
        withDependencies(RouteCore()) {
            #expect(model.recorder === model.recorder)
            #expect(copy.recorder === model.recorder)
            #expect(RouteViewModel().recorder === model.recorder)  // the container's shared instance
        }
        let other = withDependencies(RouteCore()) { RouteViewModel().recorder }
        #expect(other !== model.recorder)
    }

    @Test func theValueFollowsTheContainerInEffect() {
        let controller = RouteController()
        let container = RouteCore()
        withDependencies(container, .override({ $0.resolveHour() }, with: 23)) {
            #expect(controller.hour == 23)
            #expect(controller.hour == 23)
        }
        // Another container (the next test's): resolved again, never the last test's value.
        withDependencies(RouteCore(), .override({ $0.resolveHour() }, with: 5)) { #expect(controller.hour == 5) }
    }

    @Test @MainActor func aMainActorTypeReadsItsValue() {
        let screen = RouteScreen()
        withDependencies(RouteCore(), .override({ $0.resolveHour() }, with: 20)) {
            #expect(screen.greeting == "Good evening")
        }
    }

    @Test(arguments: 0..<64)
    func parallelScopedReadersEachReadTheirOwnContainer(hour: Int) async {
        let (model, controller) = (RouteViewModel(), RouteController())
        await withDependencies(RouteCore(), .override({ $0.resolveHour() }, with: hour)) {
            await Task.yield()
            #expect(controller.hour == hour)
            #expect(model.title() == (hour < 12 ? "Good morning" : "Good evening"))
        }
    }
}

/// Counts the instances of a test's containers that have been released.
final class ReleaseCounter: Sendable {
    private let count = Locked(0)
    var released: Int { count.withLock { $0 } }
    func note() { count.withLock { $0 += 1 } }
}

/// A shared instance that reports its release.
final class LedgerBook: Sendable {
    let counter: ReleaseCounter
    let pages = [UInt8](repeating: 0, count: 1_024)
    init(counter: ReleaseCounter) { self.counter = counter }
    deinit { counter.note() }
}

protocol LedgerDependency: DependencyContainer {
    func resolveHour() -> Int
    func resolveBook() -> LedgerBook
    func resolveTitle() -> String
}

final class LedgerCore: DependencyContainer, LedgerDependency, @unchecked Sendable {
    let counter: ReleaseCounter
    init(counter: ReleaseCounter) { self.counter = counter }

    func resolveHour() -> Int { fresh { 9 } }
    func resolveBook() -> LedgerBook { shared { LedgerBook(counter: counter) } }
    /// Built on the shared book, which it does not keep.
    func resolveTitle() -> String { fresh { "\(resolveHour()) o'clock, \(resolveBook().pages.count) pages" } }
}

let ledgerInjector = Injector<any LedgerDependency> { LedgerCore(counter: ReleaseCounter()) }

/// A view model a test keeps after its scope.
struct LedgerViewModel {
    @Inject(ledgerInjector, { $0.resolveTitle() }) var title
}

@Suite struct InjectHolderLifetimeTests {
    @Test func holdersReadInOverrideScopesThatEndedKeepNoneOfTheirInstances() {
        let counter = ReleaseCounter()
        var holders: [LedgerViewModel] = []
        for hour in 0..<100 {
            let holder = LedgerViewModel()
            withDependencies(LedgerCore(counter: counter), .override({ $0.resolveHour() }, with: hour)) {
                #expect(holder.title == "\(hour) o'clock, 1024 pages")
            }
            holders.append(holder)
        }
        // Every scope's book was released when its scope ended, while the holders live.
        #expect(counter.released == 100)
        #expect(holders.count == 100)
    }

    @Test func holdersReadInWithOverridesOnALongLivedContainerKeepNoneOfTheScopesInstances() {
        let counter = ReleaseCounter()
        let container = LedgerCore(counter: counter)
        let holders = withDependencies(container) {
            (0..<100).map { hour in
                let holder = LedgerViewModel()
                ledgerInjector.withOverrides(.override({ $0.resolveHour() }, with: hour)) {
                    #expect(holder.title == "\(hour) o'clock, 1024 pages")
                }
                return holder
            }
        }
        #expect(counter.released == 100)
        #expect(holders.count == 100)
        withExtendedLifetime(container) {}
    }

    @Test func holdersReadInScopedContainersThatEndedKeepNoneOfTheirInstances() {
        let counter = ReleaseCounter()
        let holders = (0..<100).map { _ in
            let holder = LedgerViewModel()
            withDependencies(LedgerCore(counter: counter)) { _ = holder.title }
            return holder
        }
        #expect(counter.released == 100)
        #expect(holders.count == 100)
    }

    @Test func aHolderNeverTakesANewScopeForTheOneItsValueCameFrom() {
        let holder = LedgerViewModel()
        let counter = ReleaseCounter()
        for hour in 0..<1_000 {
            // Each scope's container and override set are freed before the next is made, so the next
            // may well be made at the same addresses.
            let title = withDependencies(LedgerCore(counter: counter), .override({ $0.resolveHour() }, with: hour)) {
                holder.title
            }
            #expect(title == "\(hour) o'clock, 1024 pages")
        }
        let outside = withDependencies(LedgerCore(counter: counter)) { holder.title }
        #expect(outside == "9 o'clock, 1024 pages")
    }
}
