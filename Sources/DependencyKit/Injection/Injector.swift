internal import _DependencyKitShims

/// The global container of one kind, swappable from any thread, and the way code reaches it.
///
/// Declare one injector per container protocol, with the container it serves by default, and read
/// ``dependencies`` wherever code needs a dependency:
///
/// ```swift
/// let appInjector = Injector<any AppDependency> { CoreAppDependency() }
///
/// appInjector.dependencies = EveningDependency()   // at launch, from any thread
/// let greeter = appInjector.dependencies.resolveGreeter()
/// ```
///
/// Inside a scope — ``withDependencies(_:operation:)-(_,()->R)``, a test's `.dependencies(…)`
/// trait — ``dependencies`` is the scope's container instead: every injector whose container type
/// the scope's container is serves it, and other tasks keep theirs.
///
/// ## The hot path
///
/// Reading ``dependencies`` takes no lock. It makes one relaxed atomic load of the number of live
/// scopes — when no scope is live, it skips the task-local lookup entirely — then announces the
/// read in its thread's hazard slot (an exchange on a word no other thread writes), loads the
/// installed box, retains the container, and clears the slot. Readers write no shared
/// word, so they never contend with each other. While a scope is live, a read inside a synchronous
/// scope finds it through a per-thread slot, and any other read through the task-local (see
/// `ScopeFrame`).
///
/// ## Lifetime of installed containers
///
/// Installing a container replaces the previous one, which is freed — with the shared instances it
/// created — as soon as no thread is reading it: at once, unless another thread is in the middle
/// of a read of it, and then at the next install or the next read on any thread. Its `deinit`s,
/// and those of its instances, run on the thread that frees it, outside every lock. (The injector
/// lets go of its own reference only: a container your code still holds lives on.) Reading
/// ``dependencies`` still takes no lock and counts no reference on the shared box: a reader
/// announces its read in a slot of its own thread (a hazard pointer), and an install frees a
/// replaced box only once no slot announces a read of this injector.
///
/// Install at launch, on log-out, per test. Installing per request frees each container too, but a
/// request is better served by its own scope, ``withDependencies(_:operation:)-(_,()->R)``: other
/// requests keep theirs, and the global container is left alone.
public final class Injector<Container: Sendable>: Sendable {
    /// Holds one installed container. The injector owns the installed box (one reference, taken when
    /// it is installed); a replaced box is released once no reader holds it (see ``global``).
    @usableFromInline
    final class Box: Sendable {
        @usableFromInline
        let container: Container
        /// The container as an object, converted once. `nonisolated(unsafe)`: sound because it is
        /// `container`, which is `Sendable`, held as another type.
        @usableFromInline
        nonisolated(unsafe) let object: AnyObject
        #if !PublicAPIOnly
            /// The list of conversions `container` keeps (see ``ContainerConversions``), or `nil` for a
            /// container type that does not derive from ``DependencyContainer``. A plain pointer, so a
            /// read follows it without reference counting; the container lives as long as the box.
            /// `nonisolated(unsafe)`: written once in `init`, and the word it points at is only read
            /// and written with atomics.
            @usableFromInline
            nonisolated(unsafe) let conversions: UnsafeMutablePointer<Int>?
        #endif

        init(_ container: Container) {
            self.container = container
            object = container as AnyObject
            #if !PublicAPIOnly
                conversions = (object as? DependencyContainer)?.sharedInstances.conversions
            #endif
        }
    }

    /// The default container's factory, and the replaced boxes a reader may still hold.
    private struct State {
        var makeDefault: @Sendable () -> Container
        /// Replaced boxes that a reader may have held when they were last scanned (a thread's hazard
        /// slot announced ``installedBox``), with the injector's reference to each; the count is
        /// mirrored in ``installedBox``'s spare word.
        var retired: [Box] = []

        /// Takes every box out of ``retired`` unless a thread is reading from `installed` (a read may
        /// hold any of them), for the caller to release once it has left the lock (their containers'
        /// `deinit`s are user code).
        mutating func takeUnprotected(installed: AtomicWord) -> [Box] {
            guard !retired.isEmpty else { return [] }
            guard !HazardSlot.isAnnounced(installed.word) else {
                installed.storeSpareRelease(retired.count)
                return []
            }
            installed.storeSpareRelease(0)
            defer { retired = [] }
            return retired
        }
    }

    /// The installed box, whose one reference the injector owns; `0` until the first read or install.
    /// Its spare word holds the number of retired boxes (`State.retired`), which a reader checks after
    /// its read: a relaxed load of a word written only by installs.
    @usableFromInline
    let installedBox = AtomicWord(0)

    /// The number of live scopes of every task (`ScopeFrame.live`), held here so that the hot path
    /// loads it through `self` rather than through a global's lazy initialiser.
    @usableFromInline
    let liveScopes: AtomicWord

    private let state: Locked<State>

    /// Creates an injector whose default container is made by `makeDefault`.
    ///
    /// ```swift
    /// let appInjector = Injector<any AppDependency> { CoreAppDependency() }
    /// ```
    ///
    /// The factory runs lazily, on the first read, and again after each ``reset()``.
    /// - Parameter makeDefault: Makes the container served when nothing else is installed.
    public init(_ makeDefault: @escaping @Sendable () -> Container) {
        state = Locked(State(makeDefault: makeDefault))
        liveScopes = ScopeFrame.live
    }

    deinit {
        // No reader is left: each held the injector. The retired boxes go with `state`.
        UnsafeRawPointer(bitPattern: installedBox.loadAcquire()).map { Unmanaged<Box>.fromOpaque($0).release() }
    }

    /// The container in effect for the current task: the innermost scope's, else the global one.
    ///
    /// Setting it installs a new global container, from any thread; live scopes keep theirs.
    @inlinable
    public var dependencies: Container {
        // Always inlined: a read is a few loads and one retain, cheaper than the call itself.
        @inline(__always) get { current }
        set { install(newValue) }
    }

    /// Installs a fresh default container as the global one.
    ///
    /// DependencyKitTesting's guard does not count a reset as a global install: it puts the default
    /// back rather than swapping in a container of the caller's.
    public func reset() {
        install(state.withLock { $0.makeDefault }(), reportingToGuard: false)
    }

    /// Changes how this injector makes its default container, and installs one made that way.
    ///
    /// A library declares its injector with its own default container; an app that subclasses
    /// that container makes its subclass the default at launch, so that ``reset()`` (and every
    /// test that resets) comes back to the app's container rather than the library's:
    ///
    /// ```swift
    /// greetingInjector.setDefault { EveningDependency() }
    /// ```
    /// - Parameter makeDefault: Makes the container served after this call and after each
    ///   ``reset()``.
    public func setDefault(_ makeDefault: @escaping @Sendable () -> Container) {
        state.withLock { $0.makeDefault = makeDefault }
        install(makeDefault())
    }

    /// The container in effect for the current task.
    ///
    /// The innermost live scope whose container is a `Container` wins; without one, the global container.
    @inlinable
    package var current: Container {
        @inline(__always) get {
            if _slowPath(liveScopes.loadRelaxed() != 0), let scoped = scopedContainerInlined() { return scoped }
            return global
        }
    }

    /// The global container, ignoring any scope.
    ///
    /// The box is read as a borrow — no reference counting on it, no lock — under the protection of
    /// this thread's hazard slot; the returned container is one copy (+1), which the caller
    /// releases after its resolve call.
    ///
    /// Why no reader touches a freed box. The reader stores the address of ``installedBox``'s word
    /// in its thread's slot, then loads the word and reads the box it holds; an installer exchanges
    /// the word, then loads every slot, and releases the old box only if no slot holds the word's
    /// address (now, or at a later scan, until which it keeps the box in `State.retired`). All four
    /// are sequentially consistent, so they fall in one total order. If the reader's store comes
    /// before the installer's exchange, the installer's scan, which comes after its exchange, sees
    /// the address (or a later value of the slot, stored after the reader was done: a release store,
    /// so the reader's reads happen before the free), and keeps the box. If it comes after, the
    /// reader's load, which comes after its store, sees the new box, never the old one. A replaced
    /// box is never installed again. Nothing between the announcement and `clear()` reads an
    /// injector (a retain, a walk of the container's conversions), so the thread's one slot is never
    /// overwritten while it protects a read. The slot names the word rather than the box, so a read
    /// needs no second load to check its box; the price, a box replaced during any read of its
    /// injector waits for the next scan, is a few instructions' worth of reads.
    /// The container in effect, the same container as an object, without a conversion (a scope's frame and
    /// the installed box hold both), and whether the current task's innermost frame holds it.
    @inlinable
    var currentWithObject: (container: Container, object: AnyObject, isInnermost: Bool) {
        if _slowPath(liveScopes.loadRelaxed() != 0) {
            let head = ScopeFrame.borrowedInnermost
            if let scoped = ScopeFrame.innermost(from: head, serving: Container.self, keepingFrame: true) {
                defer { if _slowPath(scoped.processWide) { HazardSlot().clear() } }
                let frame = UnsafeRawPointer(scoped.frame.toOpaque())
                return (scoped.container, scoped.frame._withUnsafeGuaranteedRef { $0.owner }, frame == head)
            }
        }
        if let installed = readingInstalledBox({ ($0.container, $0.object) }) {
            return (installed.0, installed.1, false)
        }
        let made = installDefault()
        return (made, made as AnyObject, false)
    }

    @inlinable
    package var global: Container {
        @inline(__always) get { readingInstalledBox { $0.container } ?? installDefault() }
    }

    /// What `read` takes from the installed box, read under this thread's hazard slot (see ``global``);
    /// `nil` before the first install.
    @inlinable
    @inline(__always)
    func readingInstalledBox<T>(_ read: (Box) -> T?) -> T? {
        // The word's address in a local: the fence of the announcement would make the compiler load
        // it again from `self` for the check of retired boxes.
        let word = installedBox.word
        let slot = HazardSlot()
        let raw = slot.protect(word)
        guard _fastPath(raw != 0) else {
            slot.clear()
            return nil
        }
        let found = Unmanaged<Box>.fromOpaque(UnsafeRawPointer(bitPattern: raw).unsafelyUnwrapped)
            ._withUnsafeGuaranteedRef(read)
        slot.clear()
        if _slowPath(AtomicWord.loadSpareRelaxed(after: word) != 0) { releaseRetired() }
        return found
    }

    /// Installs `container` as the global container, from any thread.
    ///
    /// Readers on other threads see either the previous container or this one, never a torn
    /// value. Scopes that are live keep their own container.
    /// - Parameters:
    ///   - container: The container to serve from now on.
    ///   - reportingToGuard: `false` for a ``reset()``, which puts the default back rather than
    ///     swapping in a container of the caller's.
    @usableFromInline
    package func install(_ container: Container, reportingToGuard: Bool = true) {
        if _slowPath(InstalledContainers.testScopes.loadRelaxed() != 0), reportingToGuard {
            Interception.injectionObserver?.reportGlobalInstall(of: container, in: Self.self) { $0 is Container }
        }
        Self.markInstalled(container)
        let box = Unmanaged.passRetained(Box(container))
        // The boxes taken are released once `withLock` returns, outside the lock: the replaced containers'
        // and their instances' deinits run.
        _ = state.withLock { state in
            let old = installedBox.exchange(Int(bitPattern: box.toOpaque()))
            if old != 0 {
                state.retired.append(Unmanaged<Box>.fromOpaque(UnsafeRawPointer(bitPattern: old)!).takeRetainedValue())
            }
            return state.takeUnprotected(installed: installedBox)
        }
    }

    /// Releases the retired boxes no reader holds any more: the cold path of a read that saw some.
    @usableFromInline
    @inline(never)
    func releaseRetired() {
        _ = state.withLock { $0.takeUnprotected(installed: installedBox) }  // released outside the lock
    }

    /// Marks `container` as installed as a global, when it is a ``DependencyContainer``: the test
    /// guard's question about a container it sees resolve (`Resolution.servedByAnInstalledGlobal`).
    private static func markInstalled(_ container: Container) {
        (container as AnyObject as? DependencyContainer)?.sharedInstances.markInstalledAsGlobal()
    }

    /// The cold path of `global`: the first read installs the default container.
    @usableFromInline
    func installDefault() -> Container {
        // The factory runs outside the lock (it is user code); if two threads race here, the
        // first to install wins and both return the winner, so only one default is ever served.
        let candidate = state.withLock { $0.makeDefault }()
        Self.markInstalled(candidate)
        return state.withLock { _ in
            guard let raw = UnsafeRawPointer(bitPattern: installedBox.loadAcquire()) else {
                _ = installedBox.exchange(Int(bitPattern: Unmanaged.passRetained(Box(candidate)).toOpaque()))
                return candidate
            }
            // Under the lock: the installed box is replaced only under it, so it is released after this retain.
            return Unmanaged<Box>.fromOpaque(raw)._withUnsafeGuaranteedRef { $0.container }
        }
    }
}

/// How many guarded tests are running with containers of their own: what an install asks before it
/// reports itself to the test guard.
package enum InstalledContainers {
    /// The number of live test contexts (DependencyKitTesting) with containers of their own; a global
    /// install while it is not `0` is reported to the installing test.
    package static let testScopes = AtomicWord(0)
}
