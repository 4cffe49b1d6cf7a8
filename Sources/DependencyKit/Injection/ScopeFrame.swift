#if PublicAPIOnly
    internal import _DependencyKitShims
#else
    // `public import`: the per-thread scope is read by inlinable code in client modules.
    public import _DependencyKitShims
#endif

/// One container put in effect by a scope, in the current task's chain of scopes.
///
/// Frames form a linked list held in a single task-local, innermost first. A frame serves every
/// injector whose container type its container is: an injector's read walks the chain from the
/// innermost frame and takes the first container it can read as its `Container` (the conversion is
/// kept by the container, so only its first read in a scope pays the cast; see
/// ``ContainerConversions``).
///
/// A frame counts itself in one process-wide live-scope counter for as long as it exists —
/// incremented in `init`, decremented in `deinit` — because an unstructured `Task {}` started inside
/// a scope inherits the task-local and can outlive the `withValue` call; counting "+1 before, −1
/// after the call" would let the hot path skip a lookup that such a task still needs. While the
/// counter is `0` an injector's read skips the chain entirely.
///
/// ## The process-wide scope
///
/// XCTest runs one test at a time in a process; its helper puts the test's container in effect for
/// the whole process with ``bindProcessWide(_:)``. Every chain ends there: a walk that reaches the
/// end of its task's chain goes on with the process-wide frames, under its thread's hazard slot, so
/// that an ended test's frame, and its container, is freed as soon as no thread reads it.
///
/// ## The synchronous shortcut
///
/// Reading a task-local costs a few hundred instructions. A synchronous scope
/// (``bind(_:operation:)``) also records its frame in a per-thread slot, tagged with the task it
/// runs in, for as long as its operation runs; a read on that thread, from that same task, walks
/// the chain from the slot without the task-local lookup. Why that is the same chain, and the
/// public-API build without it: RuntimeShortcuts.swift, section 3.
@usableFromInline
package final class ScopeFrame: Sendable {
    /// The chain of frames visible to the current task, ending in ``root``.
    ///
    /// Not optional: reading a task-local copies its value through value witnesses, and an
    /// optional's cost about sixty instructions more per read than a class reference's.
    @usableFromInline
    @TaskLocal static var chain: ScopeFrame = root

    /// The innermost frame visible to the current task, borrowed (see
    /// ``borrowedTaskLocalObject(_:key:unbound:)``): `nil` or ``root`` outside any scope.
    @inlinable
    @inline(__always)
    static var borrowedHead: UnsafeRawPointer? { borrowedTaskLocalObject(chainLocal, key: chainKey, unbound: root) }

    /// The key ``chain`` is stored under (see ``taskLocalKey(_:)``).
    @usableFromInline
    static let chainKey = taskLocalKey($chain)

    /// The end of every task's chain: serves no injector.
    @usableFromInline
    static let root = ScopeFrame()

    /// The number of live frames, of every task; the hot path skips the chain when it is `0`.
    @usableFromInline
    package static let live = AtomicWord(0)

    /// The innermost process-wide frame, retained by the word, `0` when there is none. A reader on any
    /// thread follows it under its hazard slot (``innermost(from:serving:keepingFrame:)``); a frame the
    /// word no longer holds is released once no slot announces the word (``bindProcessWide(_:)``).
    @usableFromInline
    static let processWide = AtomicWord(0)

    /// The innermost frame visible to the current task, or `nil` outside any scope.
    @inlinable
    package static var current: ScopeFrame? {
        guard let head = borrowedHead else { return nil }
        let frame = Unmanaged<ScopeFrame>.fromOpaque(head).takeUnretainedValue()
        return frame === root ? nil : frame
    }

    /// ``chain``'s task-local, for inlinable code.
    @usableFromInline
    static var chainLocal: TaskLocal<ScopeFrame> { $chain }

    /// The container this frame puts in effect, held so that it (and the conversions it keeps) lives as
    /// long as the frame.
    @usableFromInline
    package let owner: DependencyContainer
    /// The next outer frame.
    @usableFromInline
    let parent: ScopeFrame?
    /// The nearest outer frame whose container is of another class: an injector this frame's container
    /// does not serve skips, in one step, the frames of the same class directly around it, so a read
    /// inside any number of nested scopes of another kind of container costs one step.
    @usableFromInline
    let outerOfOtherClass: ScopeFrame?
    /// Whether this is ``root``, the end of a task's chain.
    @usableFromInline
    let isRoot: Bool

    /// Makes a frame that puts `owner` in effect inside the frames `parent` starts.
    package init(owner: DependencyContainer, parent: ScopeFrame?) {
        (self.owner, self.parent, isRoot) = (owner, parent, false)
        let ownerClass = ObjectIdentifier(type(of: owner))
        self.outerOfOtherClass = parent.flatMap {
            ObjectIdentifier(type(of: $0.owner)) == ownerClass && !$0.isRoot ? $0.outerOfOtherClass : $0
        }
        Self.live.add(1)
    }

    /// The root: not counted, and never matched.
    private init() { (owner, parent, outerOfOtherClass, isRoot) = (DependencyContainer(), nil, nil, true) }

    deinit { if !isRoot { Self.live.add(-1) } }

    /// Puts `container` in effect for every task of the process, inside every task's own scopes, until
    /// the returned function is called: XCTest's helper, which runs one test at a time, one call after
    /// another (the calls are not made concurrently).
    ///
    /// The ended frame, and the test's container with it, is released as soon as no thread reads it: a
    /// reader announces the word in its hazard slot before it loads the frame and clears the slot once it
    /// is done with the frame, so a frame is released only when the word no longer holds it and no slot
    /// announces the word — the argument of `Injector.global`, whose reads these repeat.
    /// - Returns: Ends the process-wide scope, putting back the one in effect before.
    package static func bindProcessWide(_ container: DependencyContainer) -> @Sendable () -> Void {
        // The word's reference to the outer frame passes to the returned function, which gives it back.
        let outer = processWide.loadAcquire()
        let parent = UnsafeRawPointer(bitPattern: outer).map(Unmanaged<ScopeFrame>.fromOpaque)?.takeUnretainedValue()
        let frame = Unmanaged.passRetained(ScopeFrame(owner: container, parent: parent))
        _ = processWide.exchange(Int(bitPattern: frame.toOpaque()))
        return {
            let ended = processWide.exchange(outer)
            // A reader announces the word for the few instructions of its walk and of its use of the frame found.
            while HazardSlot.isAnnounced(processWide.word) {}
            Unmanaged<ScopeFrame>.fromOpaque(UnsafeRawPointer(bitPattern: ended)!).release()
        }
    }

    /// The container this frame puts in effect, as `Container`, if it is one.
    ///
    /// The container keeps each conversion it made, so a read after the first finds it in a short list
    /// (see ``ContainerConversions``); the first read casts.
    @inlinable
    @inline(__always)
    func container<Container>(as _: Container.Type) -> Container? {
        #if !PublicAPIOnly
            if let kept = Self.kept(in: owner.sharedInstances.conversions, as: Container.self, of: owner) {
                return kept
            }
        #endif
        return converting(to: Container.self)
    }

    /// The cold path of ``container(as:)``: casts the container, and keeps the conversion.
    @usableFromInline
    @inline(never)
    func converting<Container>(to _: Container.Type) -> Container? {
        guard !isRoot, let converted = owner as? Container else { return nil }
        #if !PublicAPIOnly
            _ = ContainerConversions.add(converted, of: owner, to: owner.sharedInstances.conversions)
        #endif
        return converted
    }

    /// The innermost frame from `head` on whose container is a `Container`, unretained: the task's
    /// chain, then the process-wide one. The caller keeps `head` alive, and every frame keeps its parent.
    ///
    /// A frame of the process-wide chain is read under this thread's hazard slot. `keepingFrame`, the slot
    /// still announces the chain when such a frame is returned (`processWide` is `true`): the caller ends the
    /// protection with `HazardSlot().clear()` once it no longer reads the frame, and reads no injector before.
    @inlinable
    @inline(__always)
    static func innermost<Container>(
        from head: UnsafeRawPointer?, serving _: Container.Type, keepingFrame: Bool = false
    ) -> (frame: Unmanaged<ScopeFrame>, container: Container, processWide: Bool)? {
        var next = head
        var reachedProcessWide = false
        while true {
            guard let raw = next else {
                // The end of the task's chain: go on with the process-wide one, once, under the hazard slot.
                if reachedProcessWide || processWide.loadRelaxed() == 0 {
                    if reachedProcessWide { HazardSlot().clear() }
                    return nil
                }
                reachedProcessWide = true
                next = UnsafeRawPointer(bitPattern: HazardSlot().protect(processWide.word))
                continue
            }
            let frame = Unmanaged<ScopeFrame>.fromOpaque(raw)
            let found: Container? = frame._withUnsafeGuaranteedRef { frame in
                if frame.isRoot {
                    next = nil
                    return nil
                }
                if let container = frame.container(as: Container.self) { return container }
                next = frame.outerOfOtherClass.map { address(of: $0) }
                return nil
            }
            if let found {
                if reachedProcessWide && !keepingFrame { HazardSlot().clear() }
                return (frame, found, reachedProcessWide && keepingFrame)
            }
        }
    }

    /// Runs the synchronous `operation` with `frame` as the current chain, for this task and for
    /// the synchronous shortcut (see the type's discussion).
    ///
    /// Every synchronous binding of ``current`` goes through here, or the shortcut would serve a
    /// chain that is no longer current.
    /// - Parameters:
    ///   - frame: The innermost frame, or `nil` for no scope.
    ///   - operation: The code to run.
    /// - Returns: What `operation` returns.
    ///
    /// Always inlined into its callers, so that a nested synchronous scope costs one frame of
    /// DependencyKit's on the stack besides the task-local's (400 bytes a level, not 512).
    @inline(__always)
    package static func bind<R>(_ frame: ScopeFrame?, operation: () throws -> R) rethrows -> R {
        // `withValue` keeps `frame`, and so its parents, alive until the slot is restored.
        try withThreadSlot(frame) { try $chain.withValue(frame ?? root, operation: operation) }
    }

    /// Runs the asynchronous `operation` with `frame` as the current chain.
    ///
    /// An asynchronous operation can move between threads, so it does not use the synchronous
    /// shortcut; a synchronous scope inside it does.
    /// - Parameters:
    ///   - frame: The innermost frame, or `nil` for no scope.
    ///   - isolation: The caller's isolation, inherited by `operation`.
    ///   - operation: The code to run.
    /// - Returns: What `operation` returns.
    @inlinable
    package static func bind<R>(
        _ frame: ScopeFrame?, isolation: isolated (any Actor)? = #isolation, operation: () async throws -> R
    ) async rethrows -> R {
        try await chainLocal.withValue(frame ?? root, operation: operation, isolation: isolation)
    }

    /// The innermost frame of the current task, borrowed: through this thread's slot when the
    /// shortcut applies, else through the task-local. The binding that stored it keeps it alive
    /// while a synchronous read runs in the task that sees it.
    @inlinable
    @inline(__always)
    static var borrowedInnermost: UnsafeRawPointer? { shortcut ?? borrowedHead }
}

// How an injector reads the chain: the scoped half of `Injector.current`.

extension Injector {
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

// The runtime shortcuts (Internal/RuntimeShortcuts.swift) a frame uses: the per-thread copy of the
// scope chain (section 3) and the kept conversions of a container (section 4).

extension ScopeFrame {
    /// Runs `operation` with `frame` recorded in this thread's slot, for this task.
    /// - Parameters:
    ///   - frame: The innermost frame, or `nil` for a scope that binds no container.
    ///   - operation: The code to run; it binds `frame` in the task-local.
    @inline(__always)
    static func withThreadSlot<R>(_ frame: ScopeFrame?, _ operation: () throws -> R) rethrows -> R {
        #if PublicAPIOnly
            return try operation()
        #else
            let outer = dk_thread_scope_get()
            dk_thread_scope_set(
                dk_thread_scope(task: currentTaskAddress(), frame: frame.map { address(of: $0) }, bound: 1))
            defer { dk_thread_scope_set(outer) }
            return try operation()
        #endif
    }

    /// The innermost frame of the synchronous scope running on this thread for the current task.
    ///
    /// - Returns: `.some(frame)` (possibly `.some(nil)`: a synchronous scope that binds nothing)
    ///   when the shortcut applies; `nil` when the caller must read the task-local (always, in the
    ///   public-API build).
    @inlinable
    @inline(__always)
    static var shortcut: UnsafeRawPointer?? {
        #if PublicAPIOnly
            return nil
        #else
            let slot = dk_thread_scope_get()
            guard slot.bound != 0, slot.task == currentTaskAddress() else { return nil }
            #if DEBUG
                RuntimeShortcutCheck.threadScope(
                    found: slot.frame ?? address(of: root), expected: address(of: chainLocal.get()))
            #endif
            return .some(slot.frame)
        #endif
    }

    #if !PublicAPIOnly
        /// The copy of `owner` as `Converted` in `conversions`, the list `owner` keeps, checked in debug
        /// builds to be `owner` (see ``RuntimeShortcutCheck``); `nil` when the list holds none.
        @inlinable
        @inline(__always)
        static func kept<Converted, Owner>(
            in conversions: UnsafeMutablePointer<Int>, as _: Converted.Type, of owner: Owner
        ) -> Converted? {
            guard let kept = ContainerConversions.find(in: conversions, as: Converted.self) else { return nil }
            let converted = kept.assumingMemoryBound(to: Converted.self).pointee
            #if DEBUG
                RuntimeShortcutCheck.conversion(converted, of: owner as AnyObject)
            #endif
            return converted
        }
    #endif
}
