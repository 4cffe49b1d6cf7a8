internal import _DependencyKitShims

/// The thread-safe, scope-aware home of one kind of container.
///
/// An injector (see ``DependencyInjecting``) owns exactly one `ContainerStorage`. It holds the
/// global container, installs the default one on first use, and consults task-local scopes
/// (see ``withDependencies(_:operation:)-(_,()->R)``) before the global.
///
/// ## The hot path
///
/// Reading ``DependencyInjecting/dependencies`` takes no lock. It makes one relaxed atomic load of the number of live
/// scopes for this storage — when no scope is live, it skips the task-local lookup entirely —
/// and one acquire load of the installed container. While a scope is live, a read inside a
/// synchronous scope finds it through a per-thread slot, and any other read through the
/// task-local (see `ScopeFrame`).
///
/// ## Lifetime of installed containers
///
/// A reader may be holding a container it has just loaded while another thread installs a
/// new one. So that such a reader never touches freed memory, and so that reading needs no
/// reference counting on the shared box, **every container ever installed in a storage stays
/// alive as long as the storage** — for an injector's `static let`, until the process exits. A
/// container is a small object (about 270 bytes with its bookkeeping); install containers at launch
/// and per test, not per request or in a loop — give a request its own container with
/// ``withDependencies(_:operation:)-(_,()->R)`` instead, which frees it when the scope ends. Shared
/// instances created by a replaced container stay with it (it is no longer served, so they are
/// never handed out again). A storage warns once, in one line on the standard error stream, when it
/// sees 10,000 installs within 10 seconds, the sign of installs in a loop — in release builds too.
public final class ContainerStorage<Container: Sendable>: InstalledContainers, Sendable {
    /// Holds one installed container. Boxes live as long as the storage (see the type's discussion).
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
    /// Every install keeps its container for the life of the storage, so a loop that installs
    /// grows memory without bound. A test suite that installs per test, or an app that installs
    /// at launch and on log-out, stays far below the rate.
    package struct InstallChurn: Sendable {
        /// Installs within one ``window`` that count as a loop.
        package static var threshold: Int { 10_000 }
        /// The window, in nanoseconds.
        package static var window: Int64 { 10_000_000_000 }

        private var windowStart: Int64?
        private var installsInWindow = 0
        /// Whether the rate has been crossed; it is reported once per storage.
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

    /// Number of live scope frames for this storage; the hot path skips the task-local when `0`.
    @usableFromInline
    package let liveScopes = AtomicWord(0)

    /// Number of live test contexts (DependencyKitTesting) scoped to this storage; a global
    /// install while it is not `0` is reported to the installing test.
    package let testScopes = AtomicWord(0)

    private let state: Locked<State>

    /// Creates a storage whose default container is made by `makeDefault`.
    ///
    /// The factory runs lazily, on the first read, and again after each ``DependencyInjecting/reset()``.
    /// - Parameter makeDefault: Makes the container served when nothing else is installed.
    public init(default makeDefault: @escaping @Sendable () -> Container) {
        state = Locked(State(makeDefault: makeDefault))
    }

    /// Whether the object with this identity is a container this storage installed (the test guard's
    /// question; see ``TestGuard/watch(_:)``). Installed containers are kept as long as the storage, so
    /// an identity found here is never a reused one.
    package func isInstalled(_ id: ObjectIdentifier) -> Bool {
        state.withLock { $0.identities.contains(id) }
    }

    /// The container in effect for the current task.
    ///
    /// The innermost live scope for this storage wins; without one, the global container.
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
        let running = testScopes.loadRelaxed()
        if _slowPath(running != 0), reportingToGuard {
            Interception.test?.reportGlobalInstall(of: container, liveTestScopes: running, storage: Self.self)
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

    /// Whether this storage has seen installs in a loop (see the type's discussion).
    package var hasSeenInstallChurn: Bool { state.withLock { $0.churn.isCrossed } }

    /// Says once, on the standard error stream, that containers are being installed in a loop.
    private func warnAboutInstallChurn(kept: Int) {
        let message = """
            DependencyKit warning: \(InstallChurn.threshold) containers were installed in \
            ContainerStorage<\(Container.self)> within \(InstallChurn.window / 1_000_000_000) seconds, and \(kept) are \
            kept. Every installed container stays alive as long as its storage (that is what lets \
            `dependencies` be read without a lock), so installing per request or in a loop grows memory \
            without bound. Install the container once at launch, and give each request or unit of work \
            its own container with `withDependencies(_:operation:)`, which frees it when the scope ends. \
            This warning is shown once per storage.

            """
        dk_write_standard_error(message)
    }

    /// Installs a fresh default container, discarding whatever was installed.
    package func reset() {
        let makeDefault = state.withLock { $0.makeDefault }
        install(makeDefault(), reportingToGuard: false)
    }

    /// Changes the factory of the default container and installs a container made by it.
    /// - Parameter makeDefault: Makes the container served after this call and after each reset.
    package func setDefault(_ makeDefault: @escaping @Sendable () -> Container) {
        state.withLock { $0.makeDefault = makeDefault }
        install(makeDefault())
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

    /// The innermost scoped container of this storage in the current task, if any.
    ///
    /// Inside a synchronous scope it walks the chain from this thread's slot, without the
    /// task-local lookup (see ``ScopeFrame``); elsewhere from the task-local. Inlinable, so that it
    /// is specialised for the container type instead of copying containers through value witnesses.
    @inlinable
    @inline(never)
    func scopedContainerInlined() -> Container? {
        scopedContainer(from: ScopeFrame.borrowedInnermost)
    }

    /// The innermost scoped container of this storage in the current task, if any, through the
    /// task-local.
    @inlinable
    @inline(__always)
    func scopedContainerThroughTaskLocal() -> Container? {
        // Borrowed: the binding that stored the head keeps it alive until it is popped, and it
        // cannot be popped while this synchronous read runs in the task that sees it.
        scopedContainer(from: ScopeFrame.borrowedHead)
    }

    /// The innermost container of this storage in the chain that starts at `head`, walked without
    /// reference counting: the caller keeps `head` alive, and every frame keeps its parent.
    @inlinable
    @inline(__always)
    func scopedContainer(from head: UnsafeRawPointer?) -> Container? {
        innermostFrame(from: head)?._withUnsafeGuaranteedRef { $0.boundContainer(as: Container.self) }
    }

    /// The innermost frame of this storage in the chain that starts at `head`, unretained.
    ///
    /// A frame of another storage is passed with the frames of its storage directly around it
    /// (``ScopeFrame/outerOfOtherStorage``): the walk takes one step per run of another injector's
    /// scopes, not one per scope.
    @inlinable
    @inline(__always)
    func innermostFrame(from head: UnsafeRawPointer?) -> Unmanaged<ScopeFrame>? {
        var next = head
        while let raw = next {
            let frame = Unmanaged<ScopeFrame>.fromOpaque(raw)
            let matches = frame._withUnsafeGuaranteedRef { frame in
                if frame.storage === liveScopes { return true }
                next = frame.outerOfOtherStorage.map { UnsafeRawPointer(Unmanaged.passUnretained($0).toOpaque()) }
                return false
            }
            if matches { return frame }
        }
        return nil
    }

    /// The innermost scoped container of this storage in the current task, if any, through the
    /// task-local only.
    package func scopedContainer() -> Container? { scopedContainerThroughTaskLocal() }

    /// Makes the scope frame that binds `container` to this storage on top of `parent`, if the
    /// container was converted to `Container` before.
    ///
    /// The frame holds the container and reads it as `Container` through the copy the container
    /// keeps of itself (see ``ContainerConversions``), converted once, on its first scope.
    /// Converting is a dynamic cast with a conformance lookup (about 1,000 instructions) when the
    /// caller holds the container as an existential — a server middleware's `any AppDependency`,
    /// scoping every request with the same container — and the frame needs no box of its own.
    /// - Returns: The frame, or `nil` when the container has no conversion yet: call
    ///   ``frame(binding:converted:parent:)``.
    @usableFromInline
    package func frame(reusingBindingOf container: DependencyContainer, parent: ScopeFrame?) -> ScopeFrame? {
        guard let value = ScopeFrame.keptBinding(of: container, as: Container.self) else { return nil }
        return ScopeFrame(storage: liveScopes, owner: container, binding: value, parent: parent)
    }

    /// Makes the scope frame that binds `container`, given as `converted`, to this storage on top
    /// of `parent`, and keeps the conversion in the container for its next scopes.
    /// - Parameters:
    ///   - container: The container to bind.
    ///   - converted: `container` as `Container`.
    ///   - parent: The frame of the scopes already current.
    @usableFromInline
    package func frame(binding container: DependencyContainer, converted: Container, parent: ScopeFrame?) -> ScopeFrame
    {
        guard let value = ScopeFrame.makeBinding(of: container, converted: converted) else {
            // `InjectableContainer` makes every container a class, and an injector's container
            // type is that class or an existential of its protocol, which holds it by reference.
            fatalError(
                "\(Container.self) does not hold a \(type(of: container)) by reference. Declare the injector's "
                    + "container type as the container protocol's existential (`any P`) or the container class."
            )
        }
        return ScopeFrame(storage: liveScopes, owner: container, binding: value, parent: parent)
    }
}

extension ContainerStorage {
    /// The container in effect, as `Refined`: the copy the container keeps of itself, else a cast
    /// kept for the next reads (see ``DependencyInjecting/dependencies(as:)``).
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
            // reported, rather than stopping the run (the test guard's seam); a test's own task stops.
            if DiagnosticsWord.hasTestContexts(DiagnosticsWord.load()), Interception.current.test == nil,
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

/// What the test guard asks of an injector's storage: which containers it installed, and its count of
/// live test scopes. ``ContainerStorage`` adopts it; only DependencyKitTesting hands one to the guard.
package protocol InstalledContainers: AnyObject, Sendable {
    /// The storage's count of live test scopes.
    var testScopes: AtomicWord { get }

    /// Whether the object with this identity is a container this storage installed.
    func isInstalled(_ id: ObjectIdentifier) -> Bool
}

// The kept conversions of Internal/RuntimeShortcuts.swift (section 4), as the storage reads them.

extension ContainerStorage {
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
                let frame = innermostFrame(from: ScopeFrame.borrowedInnermost)
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

extension ContainerStorage.Box {
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
