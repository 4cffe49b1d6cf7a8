import DependencyKit
import Foundation
import Testing

@testable import DependencyKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - Fixtures

/// What a test's containers and their shared instances made and freed.
private final class ReclaimCounts: Sendable {
    let containersMade = AtomicWord(0)
    let containersFreed = AtomicWord(0)
    let instancesMade = AtomicWord(0)
    let instancesFreed = AtomicWord(0)
}

/// One user's session store: a 1 KiB shared instance, as in the issue.
private final class Session: Sendable {
    let owner: Int
    let bytes: [UInt8]
    let counts: ReclaimCounts

    init(owner: Int, counts: ReclaimCounts) {
        self.owner = owner
        self.counts = counts
        bytes = [UInt8](repeating: UInt8(truncatingIfNeeded: owner), count: 1_024)
        counts.instancesMade.add(1)
    }

    deinit { counts.instancesFreed.add(1) }
}

private struct SessionService: Sendable {
    let owner: Int
    let session: Session
}

private protocol SessionDependency: DependencyContainer {
    var number: Int { get }
    func resolveSession() -> Session
    func resolveService() -> SessionService
}

/// The app's refined protocol, read through `dependencies(as:)`.
private protocol AccountDependency: SessionDependency {
    func resolveAccount() -> Int
}

private final class SessionContainer: DependencyContainer, AccountDependency, @unchecked Sendable {
    let number: Int
    let counts: ReclaimCounts
    /// Runs in `deinit`: user code the injector must run outside its lock.
    let onDeinit: (@Sendable () -> Void)?

    init(number: Int, counts: ReclaimCounts, onDeinit: (@Sendable () -> Void)? = nil) {
        self.number = number
        self.counts = counts
        self.onDeinit = onDeinit
        super.init()
        counts.containersMade.add(1)
    }

    deinit {
        onDeinit?()
        counts.containersFreed.add(1)
    }

    func resolveSession() -> Session { shared { Session(owner: number, counts: counts) } }
    func resolveService() -> SessionService { fresh { SessionService(owner: number, session: resolveSession()) } }
    func resolveAccount() -> Int { number }
}

private final class ThreadBody: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

/// Runs `body(index)` on `count` new threads at once and returns once every one has exited, its
/// thread-exit handlers included.
private func onNewThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    #if canImport(Darwin)
        var threads: [pthread_t?] = []
    #else
        var threads: [pthread_t] = []
    #endif
    for index in 0..<count {
        let context = Unmanaged.passRetained(ThreadBody { body(index) }).toOpaque()
        #if canImport(Darwin)
            var thread: pthread_t?
        #else
            var thread = pthread_t()
        #endif
        let result = pthread_create(
            &thread, nil,
            { raw in
                Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue().run()
                return nil
            }, context)
        precondition(result == 0, "pthread_create failed with \(result)")
        threads.append(thread)
    }
    #if canImport(Darwin)
        for thread in threads { pthread_join(thread!, nil) }
    #else
        for thread in threads { pthread_join(thread, nil) }
    #endif
}

// MARK: - Tests

/// A replaced global container is freed, with its shared instances, once no reader holds it.
struct InjectorReclamationTests {
    /// The user: a new container per log-out, or in a loop, each with a 1 KiB session store.
    /// Every replaced container and every store it built is freed.
    @Test func twentyThousandReplacedContainersAndTheirSharedInstancesAreFreed() {
        let counts = ReclaimCounts()
        let injector = Injector<any SessionDependency> { SessionContainer(number: 0, counts: counts) }
        for number in 1...20_000 {
            injector.dependencies = SessionContainer(number: number, counts: counts)
            #expect(injector.dependencies.resolveSession().owner == number)
        }
        // Log out once more: the last of the 20,000 is replaced too.
        injector.dependencies = SessionContainer(number: 0, counts: counts)
        _ = injector.dependencies.number
        #expect(counts.containersMade.loadAcquire() == 20_001)
        #expect(counts.containersFreed.loadAcquire() == 20_000)
        #expect(counts.instancesMade.loadAcquire() == 20_000)
        #expect(counts.instancesFreed.loadAcquire() == 20_000)
    }

    @Test func resetAndSetDefaultFreeTheContainerTheyReplace() {
        let counts = ReclaimCounts()
        let injector = Injector<any SessionDependency> { SessionContainer(number: 0, counts: counts) }
        _ = injector.dependencies.resolveSession()
        injector.reset()
        #expect(counts.containersFreed.loadAcquire() == 1)
        #expect(counts.instancesFreed.loadAcquire() == 1)

        _ = injector.dependencies.resolveSession()
        injector.setDefault { SessionContainer(number: 7, counts: counts) }
        #expect(counts.containersFreed.loadAcquire() == 2)
        #expect(counts.instancesFreed.loadAcquire() == 2)
        #expect(injector.dependencies.number == 7)
    }

    /// The injector gives up its own reference; one the app holds keeps the container, and its
    /// shared instances, as they were.
    @Test func aReplacedContainerTheAppHoldsStaysWhole() {
        let counts = ReclaimCounts()
        let injector = Injector<any SessionDependency> { SessionContainer(number: 0, counts: counts) }
        injector.dependencies = SessionContainer(number: 1, counts: counts)
        let held = injector.dependencies
        let session = held.resolveSession()
        injector.dependencies = SessionContainer(number: 2, counts: counts)
        #expect(counts.containersFreed.loadAcquire() == 0)
        #expect(held.resolveSession() === session)
        #expect(injector.dependencies.number == 2)
        withExtendedLifetime(held) {}
    }

    /// An injector that goes away frees the container it serves.
    @Test func anInjectorThatGoesAwayFreesItsContainer() {
        let counts = ReclaimCounts()
        do {
            let injector = Injector<any SessionDependency> { SessionContainer(number: 0, counts: counts) }
            _ = injector.dependencies.resolveSession()
            injector.dependencies = SessionContainer(number: 1, counts: counts)
            _ = injector.dependencies.resolveSession()
        }
        #expect(counts.containersFreed.loadAcquire() == 2)
        #expect(counts.instancesFreed.loadAcquire() == 2)
    }

    /// A replaced container's `deinit` is user code: it runs outside the injector's lock, so it may
    /// read the injector and install in it.
    @Test func aReplacedContainersDeinitMayReadAndInstall() {
        let counts = ReclaimCounts()
        let injector = Injector<any SessionDependency> { SessionContainer(number: 0, counts: counts) }
        let readInDeinit = AtomicWord(-1)
        injector.dependencies = SessionContainer(number: 1, counts: counts) { [injector] in
            readInDeinit.storeRelease(injector.dependencies.number)
            injector.dependencies = SessionContainer(number: 3, counts: counts)
        }
        injector.dependencies = SessionContainer(number: 2, counts: counts)
        #expect(readInDeinit.loadAcquire() == 2)
        #expect(injector.dependencies.number == 3)
        #expect(counts.containersFreed.loadAcquire() == 2)
    }

    /// The protocol itself, stopped half-way: a reader that announced the box keeps it through an
    /// install, and the box is freed at the first read after that reader is done.
    @Test func aBoxAReaderAnnouncedIsFreedOnlyAfterItsReadEnds() {
        let counts = ReclaimCounts()
        let injector = Injector<any SessionDependency> { SessionContainer(number: 0, counts: counts) }
        _ = injector.dependencies.resolveSession()
        let announced = DispatchSemaphore(value: 0)
        let replaced = DispatchSemaphore(value: 0)
        let freedWhileAnnounced = AtomicWord(-1)
        onNewThreads(2) { index in
            if index == 0 {
                // A read stopped between its announcement and the end of its read.
                let slot = HazardSlot()
                let box = slot.protect(injector.installedBox.word)
                precondition(box != 0)
                announced.signal()
                replaced.wait()
                slot.clear()
            } else {
                announced.wait()
                injector.dependencies = SessionContainer(number: 1, counts: counts)
                freedWhileAnnounced.storeRelease(counts.containersFreed.loadAcquire())
                replaced.signal()
            }
        }
        #expect(freedWhileAnnounced.loadAcquire() == 0)
        #expect(counts.containersFreed.loadAcquire() == 0)
        #expect(injector.dependencies.number == 1)
        #expect(counts.containersFreed.loadAcquire() == 1)
        #expect(counts.instancesFreed.loadAcquire() == 1)
    }

    /// A thread that exits gives its hazard slot back: a thousand threads that read one after another
    /// do not claim a thousand slots.
    @Test func threadsThatExitGiveTheirSlotBack() {
        let injector = Injector<any SessionDependency> { SessionContainer(number: 0, counts: ReclaimCounts()) }
        _ = injector.dependencies
        let before = HazardSlot.count
        for _ in 0..<1_000 {
            onNewThreads(1) { _ in _ = injector.dependencies.number }
        }
        // Other tests running meanwhile may start threads of their own; none starts hundreds.
        #expect(HazardSlot.count - before < 100)
    }

    /// The container the guard asks about knows whether an injector installed it; an object made
    /// later, even at a freed global's address, does not.
    @Test func aContainerKnowsItWasInstalledAsAGlobal() {
        let counts = ReclaimCounts()
        let injector = Injector<any SessionDependency> { SessionContainer(number: 0, counts: counts) }
        var address: ObjectIdentifier?
        do {
            let installed = SessionContainer(number: 1, counts: counts)
            #expect(!installed.sharedInstances.wasInstalledAsGlobal)
            injector.dependencies = installed
            #expect(installed.sharedInstances.wasInstalledAsGlobal)
            injector.dependencies = SessionContainer(number: 2, counts: counts)
            #expect(installed.sharedInstances.wasInstalledAsGlobal, "a replaced global was installed")
            address = ObjectIdentifier(installed)
        }
        #expect(counts.containersFreed.loadAcquire() == 1)
        // Allocators reuse a freed address at once, most of the time: whatever address each gets, none
        // of these was installed.
        for _ in 0..<1_000 {
            let made = SessionContainer(number: 3, counts: counts)
            #expect(!made.sharedInstances.wasInstalledAsGlobal)
            if ObjectIdentifier(made) == address { break }
        }
    }

    /// Threads building graphs while another installs 100,000 containers: every graph is whole and
    /// built by one container, and every replaced container is freed. Run it under
    /// `--sanitize=thread` and `--sanitize=address` too (a few seconds under either).
    @Test func graphsStayWholeWhileAHundredThousandContainersAreInstalledAndFreed() {
        let installs = 100_000
        let counts = ReclaimCounts()
        let injector = Injector<any SessionDependency> { SessionContainer(number: 0, counts: counts) }
        _ = injector.dependencies
        let installing = AtomicWord(1)
        let torn = AtomicWord(0)
        let graphs = AtomicWord(0)
        onNewThreads(4) { index in
            guard index > 0 else {
                for number in 1...installs {
                    injector.dependencies = SessionContainer(number: number, counts: counts)
                }
                installing.storeRelease(0)
                return
            }
            var newest = 0
            var built = 0
            // Ends when the installer is done, and after at least one graph.
            while built == 0 || installing.loadAcquire() != 0 {
                let container = injector.dependencies
                let service = container.resolveService()
                let account = injector.dependencies(as: (any AccountDependency).self)
                let whole =
                    service.owner == container.number && service.session.owner == container.number
                    && service.session === container.resolveSession()
                    && service.session.bytes.count == 1_024
                    && account.resolveAccount() == account.number
                    && account.resolveSession().owner == account.number
                    // Installs are ordered: one thread never sees an older container after a newer one.
                    && container.number >= newest && account.number >= container.number
                if !whole { torn.add(1) }
                newest = account.number
                built += 1
            }
            graphs.add(built)
        }
        #expect(torn.loadAcquire() == 0)
        #expect(graphs.loadAcquire() >= 3)
        // Every reader is done: the next read frees what a reader still held at its install.
        _ = injector.dependencies.number
        #expect(counts.containersMade.loadAcquire() == installs + 1)
        #expect(counts.containersFreed.loadAcquire() == installs)
        injector.reset()
        #expect(counts.containersFreed.loadAcquire() == installs + 1)
        #expect(counts.instancesFreed.loadAcquire() == counts.instancesMade.loadAcquire())
    }
}
