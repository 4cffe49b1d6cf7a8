#if PublicAPIOnly
    internal import _DependencyKitShims
#else
    // `public import`: the per-thread scope is read by inlinable code in client modules.
    public import _DependencyKitShims
#endif

/// One binding of a container to a storage in the current task's scope chain.
///
/// Frames form a linked list held in a single task-local, innermost first. A frame counts
/// itself in its storage's live-scope counter for as long as it exists — incremented in
/// `init`, decremented in `deinit` — because an unstructured `Task {}` started inside a scope
/// inherits the task-local and can outlive the `withValue` call; counting "+1 before, −1 after
/// the call" would let the hot path skip a lookup that such a task still needs.
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

    /// The end of every chain: binds no storage, so a lookup never matches it.
    @usableFromInline
    static let root = ScopeFrame()

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

    /// The live-scope counter of the storage this frame binds, which also identifies it.
    @usableFromInline
    let storage: AtomicWord
    /// The bound container, held so that it (and the conversion it keeps) lives as long
    /// as the frame.
    @usableFromInline
    let owner: DependencyContainer
    #if PublicAPIOnly
        /// The container as its storage's `Container` type, boxed (see ``Binding``); typed by `storage`.
        @usableFromInline
        let binding: Binding
    #else
        /// The address of the container as its storage's `Container` type, in the container's
        /// conversions (see ``Binding``); typed by `storage`. `nonisolated(unsafe)` is sound: an
        /// immutable address, read only while `owner`, which keeps the memory, is alive.
        @usableFromInline
        nonisolated(unsafe) let binding: Binding
    #endif
    /// The next outer frame.
    @usableFromInline
    let parent: ScopeFrame?
    /// The nearest outer frame that binds another storage: a lookup for a storage this frame does
    /// not bind skips, in one step, the frames of this frame's storage directly around it, so a
    /// read inside any number of nested scopes of another injector costs one step.
    @usableFromInline
    let outerOfOtherStorage: ScopeFrame?

    init(storage: AtomicWord, owner: DependencyContainer, binding: Binding, parent: ScopeFrame?) {
        self.storage = storage
        self.owner = owner
        self.binding = binding
        self.parent = parent
        self.outerOfOtherStorage = parent.flatMap { $0.storage === storage ? $0.outerOfOtherStorage : $0 }
        storage.add(1)
    }

    /// The root: counts itself in a word of its own that no storage shares, so its binding is never
    /// read.
    private convenience init() {
        let nothing = DependencyContainer()
        #if PublicAPIOnly
            let binding = BindingBox(nothing)
        #else
            let binding = address(of: nothing)
        #endif
        self.init(storage: AtomicWord(), owner: nothing, binding: binding, parent: nil)
    }

    deinit {
        storage.add(-1)
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
        _ frame: ScopeFrame?,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> R
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

// The runtime shortcuts (Internal/RuntimeShortcuts.swift) a frame uses: the per-thread copy of the
// scope chain (section 3) and the kept conversion it binds (section 4).

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
                dk_thread_scope(task: currentTaskAddress(), frame: frame.map { address(of: $0) }, bound: 1)
            )
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
}

extension ScopeFrame {
    #if PublicAPIOnly
        /// How a frame holds its container as its storage's `Container` type: a box.
        @usableFromInline
        typealias Binding = any AnyObject & Sendable

        /// The box of ``Binding`` in the public-API build.
        @usableFromInline
        final class BindingBox<Container: Sendable>: Sendable {
            @usableFromInline
            let container: Container

            init(_ container: Container) { self.container = container }
        }
    #else
        /// How a frame holds its container as its storage's `Container` type: the address of the copy
        /// the container keeps of itself (see ``ContainerConversions``).
        @usableFromInline
        typealias Binding = UnsafeRawPointer
    #endif

    /// The binding of `container` as `Container` made by an earlier scope, if any (never, in the
    /// public-API build).
    static func keptBinding<Container>(of container: DependencyContainer, as _: Container.Type) -> Binding? {
        #if PublicAPIOnly
            return nil
        #else
            return ContainerConversions.find(in: container.sharedInstances.conversions, as: Container.self)
        #endif
    }

    /// Makes the binding of `container`, given as `converted`; `nil` when `Container` does not hold
    /// the container by reference.
    static func makeBinding<Container: Sendable>(of container: DependencyContainer, converted: Container) -> Binding? {
        #if PublicAPIOnly
            return BindingBox(converted)
        #else
            return ContainerConversions.add(converted, of: container, to: container.sharedInstances.conversions)
        #endif
    }

    /// The bound container, as its storage's `Container` type.
    @inlinable
    @inline(__always)
    func boundContainer<Container: Sendable>(as _: Container.Type) -> Container {
        #if PublicAPIOnly
            return unsafeDowncast(binding, to: BindingBox<Container>.self).container
        #else
            let container = binding.assumingMemoryBound(to: Container.self).pointee
            #if DEBUG
                RuntimeShortcutCheck.conversion(container, of: owner)
            #endif
            return container
        #endif
    }
}
