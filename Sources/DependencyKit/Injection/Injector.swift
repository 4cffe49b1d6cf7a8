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
            #if !PublicAPIOnly
                conversions = Self.conversions(of: container)
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
        let raw = installedBox.loadAcquire()
        if raw != 0 { Unmanaged<Box>.fromOpaque(UnsafeRawPointer(bitPattern: raw).unsafelyUnwrapped).release() }
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

    /// The container in effect, as the richer container protocol your app declares on top of a
    /// library's.
    ///
    /// An app adds its own resolves by refining the library's protocol and subclassing its
    /// container; this accessor gives app code a typed container without a cast at each call
    /// site. Wrap it once in the app's own `HasDependencies`-style protocol:
    ///
    /// ```swift
    /// protocol WeatherGreetingDependency: GreetingDependency { func resolveWeather() -> any Weather }
    /// final class WeatherDependency: CoreGreetingDependency, WeatherGreetingDependency, @unchecked Sendable { ... }
    ///
    /// protocol HasWeatherDependencies {}
    /// extension HasWeatherDependencies {
    ///     var dependencies: any WeatherGreetingDependency {
    ///         greetingInjector.dependencies(as: (any WeatherGreetingDependency).self)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter type: The refined container type, such as `(any AppDependencies).self`.
    /// - Returns: The container in effect, as `type`.
    /// - Precondition: The container in effect conforms to `type`. Install your app's container
    ///   at launch and base test containers on it; a mismatch stops with a message naming both
    ///   types.
    @inlinable
    @inline(__always)
    public func dependencies<Refined>(as type: Refined.Type) -> Refined {
        // The cast is a conformance lookup; a container keeps each conversion it made (see
        // `ContainerConversions`), so only its first read as `Refined` pays it.
        current(as: type)
    }

    /// Installs a fresh default container as the global one.
    ///
    /// DependencyKitTesting's guard does not count a reset as a global install: it puts the default
    /// back rather than swapping in a container of the caller's.
    public func reset() {
        let makeDefault = state.withLock { $0.makeDefault }
        install(makeDefault(), reportingToGuard: false)
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
            if _slowPath(liveScopes.loadRelaxed() != 0), let scoped = scopedContainerInlined() {
                return scoped
            }
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
    @inlinable
    package var global: Container {
        @inline(__always) get {
            // The word's address in a local: the fence of the announcement would make the compiler load
            // it again from `self` for the check of retired boxes.
            let word = installedBox.word
            let slot = HazardSlot()
            let raw = slot.protect(word)
            if _fastPath(raw != 0) {
                let container = Unmanaged<Box>.fromOpaque(UnsafeRawPointer(bitPattern: raw).unsafelyUnwrapped)
                    ._withUnsafeGuaranteedRef { $0.container }
                slot.clear()
                if _slowPath(AtomicWord.loadSpareRelaxed(after: word) != 0) { releaseRetired() }
                return container
            }
            slot.clear()
            return installDefault()
        }
    }

    /// Installs `container` as the global container, from any thread.
    ///
    /// Readers on other threads see either the previous container or this one, never a torn
    /// value. Scopes that are live keep their own container.
    /// - Parameter container: The container to serve from now on.
    @usableFromInline
    package func install(_ container: Container) {
        install(container, reportingToGuard: true)
    }

    /// Installs `container`; `reportingToGuard` is `false` for a ``reset()``, which puts the default
    /// back rather than swapping in a container of the caller's.
    private func install(_ container: Container, reportingToGuard: Bool) {
        let running = InstalledContainers.testScopes.loadRelaxed()
        if _slowPath(running != 0), reportingToGuard {
            Interception.injectionObserver?.reportGlobalInstall(of: container, in: Self.self) { $0 is Container }
        }
        Self.markInstalled(container)
        let box = Unmanaged.passRetained(Box(container))
        let replaced: [Box] = state.withLock { state in
            let old = installedBox.exchange(Int(bitPattern: box.toOpaque()))
            if old != 0 {
                state.retired.append(Unmanaged<Box>.fromOpaque(UnsafeRawPointer(bitPattern: old)!).takeRetainedValue())
            }
            return state.takeUnprotected(installed: installedBox)
        }
        // Released here, outside the lock: the replaced containers' and their instances' deinits run.
        withExtendedLifetime(replaced) {}
    }

    /// Releases the retired boxes no reader holds any more: the cold path of a read that saw some.
    @usableFromInline
    @inline(never)
    func releaseRetired() {
        let replaced = state.withLock { $0.takeUnprotected(installed: installedBox) }
        withExtendedLifetime(replaced) {}
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
        let makeDefault = state.withLock { $0.makeDefault }
        let candidate = makeDefault()
        Self.markInstalled(candidate)
        return state.withLock { _ in
            let raw = installedBox.loadAcquire()
            if raw == 0 {
                _ = installedBox.exchange(Int(bitPattern: Unmanaged.passRetained(Box(candidate)).toOpaque()))
                return candidate
            }
            // Under the lock: the installed box is replaced only under it, so it is released after this retain.
            return Unmanaged<Box>.fromOpaque(UnsafeRawPointer(bitPattern: raw)!)._withUnsafeGuaranteedRef {
                $0.container
            }
        }
    }

    /// The innermost scoped container of this injector's type in the current task, if any.
    ///
    /// Inside a synchronous scope it walks the chain from this thread's slot, without the
    /// task-local lookup (see ``ScopeFrame``); elsewhere from the task-local. Inlinable, so that it
    /// is specialised for the container type instead of copying containers through value witnesses.
    @inlinable
    @inline(never)
    func scopedContainerInlined() -> Container? {
        ScopeFrame.innermost(from: ScopeFrame.borrowedInnermost, serving: Container.self)?.container
    }

    /// The innermost scoped container of this injector's type in the current task, if any, through the
    /// task-local only.
    package func scopedContainer() -> Container? {
        // Borrowed: the binding that stored the head keeps it alive until it is popped, and it
        // cannot be popped while this synchronous read runs in the task that sees it.
        ScopeFrame.innermost(from: ScopeFrame.borrowedHead, serving: Container.self)?.container
    }
}

extension Injector {
    /// The container in effect, as `Refined`: the copy the container keeps of itself, else a cast
    /// kept for the next reads (see ``Injector/dependencies(as:)``).
    @inlinable
    @inline(__always)
    package func current<Refined>(as type: Refined.Type) -> Refined {
        if let kept = currentConversion(as: type) { return kept }
        return Self.convertOnce(current, to: type)
    }

    /// `container` as `Refined`, kept by the container for its next reads; stops with a message
    /// naming both types when it is not one.
    @usableFromInline
    static func convertOnce<Refined>(_ container: Container, to _: Refined.Type) -> Refined {
        guard let refined = container as? Refined else {
            // Inside a test process, work that escaped every test's task reads a test's container and is
            // reported, rather than stopping the run (the test guard's seam), whether or not a test is still
            // running; a test's own task stops, and so does a process that never guarded a test.
            if Interception.current.test == nil,
                let substitute = Interception.injectionObserver?.containerForEscapedWork(
                    as: Refined.self, insteadOf: container)
            {
                return substitute
            }
            fatalError(
                "The container in effect is a \(Swift.type(of: container as Any)), which is not a \(Refined.self). "
                    + "Install a container that conforms to \(Refined.self) at launch, and derive test containers from it."
            )
        }
        keep(refined, of: container)
        return refined
    }
}

/// How many guarded tests are running with containers of their own: what an install asks before it
/// reports itself to the test guard.
package enum InstalledContainers {
    /// The number of live test contexts (DependencyKitTesting) with containers of their own; a global
    /// install while it is not `0` is reported to the installing test.
    package static let testScopes = AtomicWord(0)
}

// The kept conversions of Internal/RuntimeShortcuts.swift (section 4), as the injector reads them.

extension Injector {
    /// The container in effect, as `Refined`, if the container converted itself to `Refined`
    /// before (see ``ContainerConversions``); `nil` otherwise, for a container that is not a
    /// ``DependencyContainer``, and always in the public-API build.
    ///
    /// Read without a cast: the copy the container keeps, found in its list of conversions. The
    /// copy is read while its container is alive: a scope frame the current task keeps, or an
    /// installed box, protected by this thread's hazard slot while it is read (see ``global``).
    @inlinable
    @inline(__always)
    package func currentConversion<Refined>(as _: Refined.Type) -> Refined? {
        #if PublicAPIOnly
            return nil
        #else
            if _slowPath(liveScopes.loadRelaxed() != 0),
                let (frame, _) = ScopeFrame.innermost(from: ScopeFrame.borrowedInnermost, serving: Container.self)
            {
                return frame._withUnsafeGuaranteedRef { frame in
                    ContainerConversions.find(in: frame.owner.sharedInstances.conversions, as: Refined.self)
                        .map {
                            Self.checkedConversion($0.assumingMemoryBound(to: Refined.self).pointee, of: frame.owner)
                        }
                }
            }
            // Protected as in `global`, which says why no reader touches a freed box.
            let word = installedBox.word
            let slot = HazardSlot()
            let raw = slot.protect(word)
            guard _fastPath(raw != 0) else {
                slot.clear()
                return nil
            }
            let found = Unmanaged<Box>.fromOpaque(UnsafeRawPointer(bitPattern: raw).unsafelyUnwrapped)
                ._withUnsafeGuaranteedRef { box -> Refined? in
                    guard let conversions = box.conversions else { return nil }
                    return ContainerConversions.find(in: conversions, as: Refined.self)
                        .map {
                            Self.checkedConversion($0.assumingMemoryBound(to: Refined.self).pointee, of: box.container)
                        }
                }
            slot.clear()
            if _slowPath(AtomicWord.loadSpareRelaxed(after: word) != 0) { releaseRetired() }
            return found
        #endif
    }

    /// `converted`, checked in debug builds to be `container` (see ``RuntimeShortcutCheck``).
    @inlinable
    @inline(__always)
    static func checkedConversion<Refined, Owner>(_ converted: Refined, of container: Owner) -> Refined {
        #if DEBUG
            RuntimeShortcutCheck.conversion(converted, of: container as AnyObject)
        #endif
        return converted
    }

    /// Keeps `refined`, the container as `Refined`, in the container for the next reads (nothing in
    /// the public-API build).
    static func keep<Refined>(_ refined: Refined, of container: Container) {
        #if !PublicAPIOnly
            if let base = container as AnyObject as? DependencyContainer {
                _ = ContainerConversions.add(refined, of: base, to: base.sharedInstances.conversions)
            }
        #endif
    }
}

extension Injector.Box {
    /// The list of conversions `container` keeps, or `nil` for a container type that does not derive
    /// from ``DependencyContainer`` (always, in the public-API build).
    static func conversions(of container: Container) -> UnsafeMutablePointer<Int>? {
        #if PublicAPIOnly
            return nil
        #else
            return (container as AnyObject as? DependencyContainer)?.sharedInstances.conversions
        #endif
    }
}
