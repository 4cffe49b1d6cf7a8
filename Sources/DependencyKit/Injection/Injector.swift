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
/// scopes — when no scope is live, it skips the task-local lookup entirely — and one acquire load of
/// the installed container. While a scope is live, a read inside a synchronous scope finds it through
/// a per-thread slot, and any other read through the task-local (see `ScopeFrame`).
///
/// ## Lifetime of installed containers
///
/// A reader may be holding a container it has just loaded while another thread installs a
/// new one. So that such a reader never touches freed memory, and so that reading needs no
/// reference counting on the shared box, **every container ever installed in an injector stays
/// alive as long as the injector** — for a global `let`, until the process exits. A
/// container is a small object (about 270 bytes with its bookkeeping); install containers at launch
/// and per test, not per request or in a loop — give a request its own container with
/// ``withDependencies(_:operation:)-(_,()->R)`` instead, which frees it when the scope ends. Shared
/// instances created by a replaced container stay with it (it is no longer served, so they are
/// never handed out again). An injector warns once, in one line on the standard error stream, when it
/// sees 10,000 installs within 10 seconds, the sign of installs in a loop — in release builds too.
public final class Injector<Container: Sendable>: Sendable {
    /// Holds one installed container. Boxes live as long as the injector (see the type's discussion).
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

    /// Installed boxes, oldest first, kept alive forever, plus the default container's factory.
    private struct State {
        var installed: [Box] = []
        /// The identities of ``installed``'s containers, for the guard's question in constant time. An
        /// identity is never reused while its container is kept, and every installed container is kept.
        var identities: Set<ObjectIdentifier> = []

        mutating func keep(_ box: Box) {
            installed.append(box)
            identities.insert(ObjectIdentifier(box.container as AnyObject))
        }
        var makeDefault: @Sendable () -> Container
        var churn = InstallChurn()
    }

    /// Notices installs in a loop: 10,000 within 10 seconds, a sustained 1,000 a second.
    ///
    /// Every install keeps its container for the life of the injector, so a loop that installs
    /// grows memory without bound. A test suite that installs per test, or an app that installs
    /// at launch and on log-out, stays far below the rate.
    package struct InstallChurn: Sendable {
        /// Installs within one ``window`` that count as a loop.
        package static var threshold: Int { 10_000 }
        /// The window, in nanoseconds.
        package static var window: Int64 { 10_000_000_000 }

        private var windowStart: Int64?
        private var installsInWindow = 0
        /// Whether the rate has been crossed; it is reported once per injector.
        package private(set) var isCrossed = false

        package init() {}

        /// Records one install at `now` (monotonic nanoseconds).
        /// - Returns: `true` for the one install that crosses the threshold, else `false`.
        package mutating func record(at now: Int64) -> Bool {
            guard !isCrossed else { return false }
            if let start = windowStart, now - start < Self.window {
                installsInWindow += 1
            } else {
                windowStart = now
                installsInWindow = 1
            }
            isCrossed = installsInWindow >= Self.threshold
            return isCrossed
        }
    }

    /// The installed box as an unretained pointer; `0` until the first read or install.
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
        InstalledContainers.register(self)
    }

    /// Whether the object with this identity is a container this injector installed (the test guard's
    /// question; see ``InstalledContainers``).
    package func isInstalled(_ id: ObjectIdentifier) -> Bool {
        state.withLock { $0.identities.contains(id) }
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
    @inlinable
    package var global: Container {
        @inline(__always) get {
            let raw = installedBox.loadAcquire()
            if _fastPath(raw != 0) {
                // The box is never freed (see the type's discussion), so it can be read as a borrow:
                // no reference counting on the box. The returned container is one copy (+1), which the
                // caller releases after its resolve call.
                return Unmanaged<Box>.fromOpaque(UnsafeRawPointer(bitPattern: raw).unsafelyUnwrapped)
                    ._withUnsafeGuaranteedRef { $0.container }
            }
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
            Interception.test?.reportGlobalInstall(of: container, in: Self.self) { $0 is Container }
        }
        let box = Box(container)
        let kept: Int? = state.withLock { state in
            state.keep(box)
            installedBox.storeRelease(Int(bitPattern: Unmanaged.passUnretained(box).toOpaque()))
            // Every build: an install is rare and already takes the lock; the read path never sees this.
            return state.churn.record(at: dk_monotonic_nanoseconds()) ? state.installed.count : nil
        }
        if let kept {
            warnAboutInstallChurn(kept: kept)
        }
    }

    /// Whether this injector has seen installs in a loop (see the type's discussion).
    package var hasSeenInstallChurn: Bool { state.withLock { $0.churn.isCrossed } }

    /// Says once, on the standard error stream, that containers are being installed in a loop.
    private func warnAboutInstallChurn(kept: Int) {
        let message = """
            DependencyKit warning: \(InstallChurn.threshold) containers were installed in \
            Injector<\(Container.self)> within \(InstallChurn.window / 1_000_000_000) seconds, and \(kept) are \
            kept. Every installed container stays alive as long as its injector (that is what lets \
            `dependencies` be read without a lock), so installing per request or in a loop grows memory \
            without bound. Install the container once at launch, and give each request or unit of work \
            its own container with `withDependencies(_:operation:)`, which frees it when the scope ends. \
            This warning is shown once per injector.

            """
        dk_write_standard_error(message)
    }

    /// The cold path of `global`: the first read installs the default container.
    @usableFromInline
    func installDefault() -> Container {
        // The factory runs outside the lock (it is user code); if two threads race here, the
        // first to install wins and both return the winner, so only one default is ever served.
        let makeDefault = state.withLock { $0.makeDefault }
        let candidate = Box(makeDefault())
        let winner: Box = state.withLock { state in
            if installedBox.loadAcquire() == 0 {
                state.keep(candidate)
                installedBox.storeRelease(Int(bitPattern: Unmanaged.passUnretained(candidate).toOpaque()))
                return candidate
            }
            let raw = installedBox.loadAcquire()
            return Unmanaged<Box>.fromOpaque(UnsafeRawPointer(bitPattern: raw)!).takeUnretainedValue()
        }
        return winner.container
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
                let substitute = Interception.test?.containerForEscapedWork(as: Refined.self, insteadOf: container)
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

/// What the test guard asks of every injector: which containers were installed as globals, and how
/// many guarded tests are running with containers of their own.
///
/// Each injector keeps the identities of its installed containers under its own lock, so an install
/// never waits for another injector's; the injectors are listed here, weakly: one that goes away takes
/// its containers with it, and a freed container's identity, reused by a new object, is never taken
/// for a global.
package enum InstalledContainers {
    /// An injector, held weakly.
    private struct Registered {
        weak var injector: (any InstallingInjector)?
    }

    private static let injectors = Locked<[Registered]>([])

    /// The number of live test contexts (DependencyKitTesting) with containers of their own; a global
    /// install while it is not `0` is reported to the installing test.
    package static let testScopes = AtomicWord(0)

    /// Lists `injector` for the guard's question.
    static func register(_ injector: any InstallingInjector) {
        injectors.withLock { list in
            list.removeAll { $0.injector == nil }
            list.append(Registered(injector: injector))
        }
    }

    /// Whether the object with this identity is a container an injector alive installed (the test
    /// guard's question): one set lookup per injector.
    package static func contains(_ id: ObjectIdentifier) -> Bool {
        // Copied, and asked outside the lock: the last reference to an injector may be this copy's,
        // and freeing it frees the containers it installed, whose deinits are user code.
        let alive = injectors.withLock { $0.compactMap(\.injector) }
        return alive.contains { $0.isInstalled(id) }
    }
}

/// An injector as ``InstalledContainers`` asks it.
protocol InstallingInjector: AnyObject, Sendable {
    /// Whether the object with this identity is a container this injector installed.
    func isInstalled(_ id: ObjectIdentifier) -> Bool
}

extension Injector: InstallingInjector {}

// The kept conversions of Internal/RuntimeShortcuts.swift (section 4), as the injector reads them.

extension Injector {
    /// The container in effect, as `Refined`, if the container converted itself to `Refined`
    /// before (see ``ContainerConversions``); `nil` otherwise, for a container that is not a
    /// ``DependencyContainer``, and always in the public-API build.
    ///
    /// Read without a cast: the copy the container keeps, found in its list of conversions. The
    /// copy is read while its container is alive: a scope frame the current task keeps, or an
    /// installed box, which is never freed.
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
            let raw = installedBox.loadAcquire()
            guard _fastPath(raw != 0) else { return nil }
            return Unmanaged<Box>.fromOpaque(UnsafeRawPointer(bitPattern: raw).unsafelyUnwrapped)
                ._withUnsafeGuaranteedRef { box in
                    guard let conversions = box.conversions else { return nil }
                    return ContainerConversions.find(in: conversions, as: Refined.self)
                        .map {
                            Self.checkedConversion($0.assumingMemoryBound(to: Refined.self).pointee, of: box.container)
                        }
                }
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
