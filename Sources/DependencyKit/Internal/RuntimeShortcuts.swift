#if PublicAPIOnly
    internal import _DependencyKitShims
#else
    // `public import`: the shortcuts are `@inlinable`, so they are inlined into the modules that read
    // a container; nothing in DependencyKit's API names a type from this module.
    public import _DependencyKitShims
#endif

// # Runtime shortcuts
//
// Every place where DependencyKit relies on more than Swift's public API is in this file: what it
// assumes, why that holds on each platform, what it buys (`Docs/Measurements.md`, "What the runtime
// shortcuts buy", measured with `Benchmarks/Scripts/benchmarks-instructions.sh` against the public-API
// build), and what replaces it in the public-API build.
//
// The package trait `PublicAPIOnly` (`swift build --traits PublicAPIOnly`, or
// `.package(url: ..., traits: ["PublicAPIOnly"])`) compiles every shortcut out: task-locals are read
// with `TaskLocal.get()`, no scope is kept per thread, conversions are casts, reference counts are
// ordinary ARC. CI runs the whole test suite in that build. In debug builds of the default build,
// each shortcut's answer is checked against the public API's on every use, and a disagreement stops
// with a message naming the shortcut and this trait as the way out.
//
// The platforms:
//
// - Darwin (macOS 10.15, iOS 13, tvOS 13, watchOS 6 and later). The Swift runtime and its
//   concurrency library are ABI-stable: their exported entry points keep their names, calling
//   conventions and meaning, because apps compiled years ago call them. On OS versions before the
//   concurrency runtime shipped in the OS (iOS 13/14, macOS 10.15/11), the app embeds Apple's
//   back-deployment copy of `libswift_Concurrency`, built from the Swift 5.5 sources: it exports the
//   same entry points with the same meaning (the standard library's inlinable code, compiled into
//   apps that back-deploy, calls them).
// - Linux (glibc and musl, including the static Linux SDK) and other ELF platforms. No ABI promise:
//   the runtime is the one the app was built with, linked statically or shipped next to it, so the
//   declarations below meet the runtime they were compiled against. The entry points are the same
//   C++ functions as on Darwin, built from the same sources.
// - Windows, WASI, Android: the same runtime sources; not run by CI. Use `PublicAPIOnly` there if in
//   doubt: it is the same library, a little slower.
//
// What is *not* here, because it is public API, however unusual: `Unmanaged` and
// `_withUnsafeGuaranteedRef` (a borrow, whose lifetime argument is written where it is used), C11
// atomics and `_Thread_local` in the C target (standard C).

// MARK: - 1. Task-local reads without a copy

// Assumes: `swift_task_localValueGet(key)` is the runtime entry point `TaskLocal.get()` calls, with
// the Swift calling convention; it returns the address of the value bound to `key` in the current
// task (outside any task, on the current thread), or null when nothing is bound; the key is the
// `TaskLocal` object's own address; the value is stored as `Value`, so for a class (or an optional
// class) its first word is the reference (null for `nil`).
//
// Declared in _DependencyKitShims.h (`dk_task_local_value`), beside the runtime's other entry points
// DependencyKit calls, so the shims' header is the one place that names them.
//
// Why it holds: the standard library declares the entry point the same way
// (`@_silgen_name("swift_task_localValueGet") func _taskLocalValueGet(key:)`), and
// `TaskLocal.withValue`, which pushes the value under `self`'s address, is inlined into every client
// binary; the runtime cannot change the key, the calling convention or the storage without breaking
// every app built since Swift 5.5 (Darwin's ABI promise; on Linux the runtime is the app's own).
//
// Buys: `get()` is not inlinable and copies the value out through value witnesses (a retain and a
// release), about 130 instructions per read; the borrow is a call and two loads.
//
// Public API: `TaskLocal.get()`, the object kept alive by the binding while the caller reads it.

/// The object a task-local of class type holds in the current task, borrowed; `nil` when the
/// task-local is not bound (the default-valued form may also return the default's address).
///
/// The reference is not retained: callers use it only while the current task cannot leave the
/// binding, which keeps the object alive.
/// - Parameters:
///   - local: The task-local (evaluated only in the public-API build and in debug builds' check).
///   - key: Its key, from ``taskLocalKey(_:)``.
///   - unbound: The task-local's default value (evaluated only by debug builds' check).
@inlinable
@inline(__always)
func borrowedTaskLocalObject<Object: AnyObject & Sendable>(
    _ local: @autoclosure () -> TaskLocal<Object>,
    key: Int,
    unbound: @autoclosure () -> Object
) -> UnsafeRawPointer? {
    #if PublicAPIOnly
        return UnsafeRawPointer(Unmanaged.passUnretained(local().get()).toOpaque())
    #else
        let found = dk_task_local_value(UnsafeRawPointer(bitPattern: key).unsafelyUnwrapped)?
            .load(as: UnsafeRawPointer?.self)
        #if DEBUG
            RuntimeShortcutCheck.taskLocal(
                found: found ?? address(of: unbound()), expected: address(of: local().get()))
        #endif
        return found
    #endif
}

/// The value a task-local of type `Value` holds in the current task, in place: `nil` when it is not bound
/// (its default value is then in effect). Read a stored property of it (`.pointee.field`) to copy that
/// property alone. Only the build with the runtime shortcuts calls it; the public-API build reads the
/// task-local.
///
/// The storage is the binding's: callers read it only while the current task cannot leave the binding.
/// - Parameter key: The task-local's key, from ``taskLocalKey(_:)``.
#if !PublicAPIOnly
    func boundTaskLocalValue<Value>(of _: Value.Type, key: Int) -> UnsafePointer<Value>? {
        dk_task_local_value(UnsafeRawPointer(bitPattern: key).unsafelyUnwrapped).map {
            UnsafePointer($0.assumingMemoryBound(to: Value.self))
        }
    }
#endif

/// The key a task-local's values are stored under: its own address. Task-locals here are globals
/// that live as long as the process, so the key never dangles.
func taskLocalKey<Value>(_ local: TaskLocal<Value>) -> Int {
    Int(bitPattern: Unmanaged.passUnretained(local).toOpaque())
}

/// An object's address, unretained.
@inlinable
@inline(__always)
func address(of object: AnyObject) -> UnsafeRawPointer {
    UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
}

// MARK: - 2. The current task's address

// Assumes: `swift_task_getCurrent()` (declared in _DependencyKitShims.h, as `dk_current_task()`,
// because Swift reserves the name and warns on a `@_silgen_name` of it) is the runtime entry point
// `withUnsafeCurrentTask` calls, with the Swift calling convention; it returns the running task's address without retaining it, or null
// outside any task. DependencyKit only compares the address with another, never dereferences it.
//
// Why it holds: the standard library declares it the same way
// (`@_silgen_name("swift_task_getCurrent") func _getCurrentAsyncTask()`), and its inlinable
// `withUnsafeCurrentTask` calls it from client binaries since Swift 5.5.
//
// Buys: `withUnsafeCurrentTask` is a generic function taking a closure, over 200 instructions per
// call; this is one call. Used only by the per-thread scope (3), so the public-API build drops both.

#if !PublicAPIOnly
    /// The running task's address, unretained; `nil` outside any task.
    @inlinable
    @inline(__always)
    func currentTaskAddress() -> UnsafeRawPointer? {
        let found = dk_current_task()
        #if DEBUG
            RuntimeShortcutCheck.currentTask(found)
        #endif
        return found
    }
#endif

// MARK: - 3. The per-thread copy of the scope chain

// Assumes: while a synchronous `withDependencies` (or `DependencyContainer.Context.run`) runs its operation,
// its task runs on no other thread, and every synchronous binding of the scope chain inside it goes
// through `ScopeFrame.bind`, which updates this thread's slot and restores it on the way out. So the
// slot, tagged with the task that set it, holds the chain that task's task-local holds. Code that a
// nested run loop runs on the same thread for another task sees a different tag and reads its own
// task-local; code run there outside any task sees the slot, as it would see a task-local bound
// outside any task (kept per thread). The tag cannot name a task that ended: the task that set it
// is still inside `bind` while the slot holds it.
//
// Why it holds: it is Swift's execution model (a synchronous call runs to completion on its thread);
// the task's address comes from (2). The thread-local is standard C.
//
// Buys: a read inside a synchronous scope skips the task-local lookup (1).
//
// Public API: no per-thread copy; every scoped read goes through the task-local.

// MARK: - 4. Conversions kept in raw blocks

// Assumes: a container's injector type is the container class or an existential of a class-bound
// protocol, whose payload is the reference in the first word and which holds exactly one strong
// reference to it. `add` checks the first word at run time and keeps nothing that does not match
// (an `AnyHashable`, say), so the remaining assumption is "one reference, in that word": true of a
// class reference and of every class existential's layout (the reference, then witness tables),
// which is fixed by the Swift ABI on Darwin and is the same layout on every platform.
//
// A kept copy holds no reference of its own (a strong one would be a cycle: container, block,
// container). That is sound because a copy is only read by code that holds the container strongly
// (a scope frame, or `dependencies(as:)` holding the container it just read), and blocks are freed
// with the container. The list's head sits in the spare second word of the container's
// shared-instance table word (`AtomicWord` allocates two words: the allocator's smallest block
// holds both), so it costs no allocation until the container is first converted.
//
// Buys: a dynamic cast with a conformance lookup (400 to 1,000 instructions) per scope of a
// container held as an existential and per `dependencies(as:)` read.
//
// Public API: a scope frame holds a box with the converted container (one more allocation per
// scope); `dependencies(as:)` casts on every read.

#if !PublicAPIOnly
    /// A container's conversions to the container types it is read as, kept by the container itself so
    /// that each is made once: each injector's container type, for scopes (see
    /// `ScopeFrame.container(as:)`), and an app's refined container protocol, for
    /// ``Injector/dependencies(as:)``.
    ///
    /// A block is the converted type's identity, the next block's address, then the converted copy.
    /// Blocks are pushed with a compare-and-swap and never removed until the container's `deinit`, so
    /// a reader that loaded the head may walk the list without a lock. What it assumes: see this
    /// file's section 4.
    @usableFromInline
    enum ContainerConversions {
        /// Where a block's copy starts: after the type's identity and the next block, aligned for any
        /// container type.
        @usableFromInline
        static var valueOffset: Int { 16 }

        /// The copy of the container as `Converted`, if the list that starts at `head` has one.
        @inlinable
        static func find<Converted>(from head: Int, as _: Converted.Type) -> UnsafeRawPointer? {
            let wanted = Int(bitPattern: ObjectIdentifier(Converted.self))
            var block = head
            while block != 0 {
                let raw = UnsafeRawPointer(bitPattern: block).unsafelyUnwrapped
                if raw.load(as: Int.self) == wanted { return raw + valueOffset }
                block = raw.load(fromByteOffset: MemoryLayout<Int>.size, as: Int.self)
            }
            return nil
        }

        /// The copy of the container as `Converted`, if it has one.
        @inlinable
        static func find<Converted>(in list: UnsafeMutablePointer<Int>, as type: Converted.Type) -> UnsafeRawPointer? {
            find(from: dk_atomic_load_acquire(list), as: type)
        }

        /// Keeps `converted` — `container`, which it holds exactly one reference to — in the
        /// container's `list` of conversions, without that reference.
        /// - Returns: Where the copy is kept: this one, or another thread's that was kept first; `nil`
        ///   when `Converted` does not hold the container as its first word (an `AnyHashable`, say),
        ///   which is then not kept: the caller uses `converted` as it is.
        @usableFromInline
        static func add<Converted>(
            _ converted: Converted,
            of container: AnyObject,
            to list: UnsafeMutablePointer<Int>
        ) -> UnsafeRawPointer? {
            let block = UnsafeMutableRawPointer.allocate(
                byteCount: valueOffset + MemoryLayout<Converted>.size,
                alignment: max(MemoryLayout<Converted>.alignment, MemoryLayout<Int>.alignment))
            block.storeBytes(of: Int(bitPattern: ObjectIdentifier(Converted.self)), as: Int.self)
            let value = (block + valueOffset).bindMemory(to: Converted.self, capacity: 1)
            value.initialize(to: converted)
            // A container type is a class or an existential of one: the copy holds the container as
            // its first word and took one reference to it, given back here. Anything else (a box
            // around the container) is not kept.
            guard
                MemoryLayout<Converted>.size >= MemoryLayout<UnsafeRawPointer>.size,
                UnsafeRawPointer(value).load(as: UnsafeRawPointer.self) == address(of: container)
            else {
                value.deinitialize(count: 1)
                block.deallocate()
                return nil
            }
            Unmanaged.passUnretained(container).release()
            var head = dk_atomic_load_acquire(list)
            while true {
                if let kept = find(from: head, as: Converted.self) {
                    // Another thread kept the same conversion first. This copy holds no reference: it
                    // is freed without being deinitialised.
                    block.deallocate()
                    return kept
                }
                block.storeBytes(of: head, toByteOffset: MemoryLayout<Int>.size, as: Int.self)
                // On failure, `head` is updated to the newer head.
                if dk_atomic_compare_exchange(list, &head, Int(bitPattern: block)) {
                    return UnsafeRawPointer(block + valueOffset)
                }
            }
        }

        /// Frees every block of a container's list, from its `deinit`, when nothing else can read it.
        /// The copies hold no reference: they are not deinitialised.
        static func end(_ list: UnsafeMutablePointer<Int>) {
            var block = list.pointee
            while block != 0 {
                let raw = UnsafeMutableRawPointer(bitPattern: block).unsafelyUnwrapped
                block = raw.load(fromByteOffset: MemoryLayout<Int>.size, as: Int.self)
                raw.deallocate()
            }
        }
    }
#endif

// MARK: - 5. Initial-exec thread-locals (_DependencyKitShims.h)

// Assumes: on ELF platforms, the C target's four thread-locals (the resolution depth, the thread's
// graph, the scope slot above and the thread's hazard slot, Internal/HazardSlots.swift: 48 bytes) can
// live in the static TLS block. In an executable that is always so. A shared library that contains
// DependencyKit and is loaded with `dlopen` needs 48 bytes of the block's spare room, which glibc reserves for exactly this (512 bytes by default,
// `glibc.rtld.optional_static_tls`); musl gives every library static TLS. `dlopen` fails ("cannot
// allocate memory in static TLS block") only when other initial-exec libraries used the room up.
//
// Proved: `Scripts/dlopen-check.sh` (run by CI) builds DependencyKit into a shared library, loads it
// with `dlopen` from a C host and resolves a graph, a scope and a per-graph instance through it.
//
// Buys: the general-dynamic access, relaxed by the linker in an executable, costs one instruction
// more per access and holds a register across a resolve's body: about 20 instructions a graph (0.7 %).
//
// Public API: the default TLS model.

// MARK: - Debug builds: each shortcut checked against the public API

/// The debug builds' check of each shortcut's answer against the public API's; a disagreement means
/// the Swift runtime this build runs on is not the one this file describes.
@usableFromInline
enum RuntimeShortcutCheck {
    /// Stops with a message naming the shortcut, what it found and what the public API found.
    @usableFromInline
    static func disagreement(_ shortcut: String, found: String, expected: String) -> Never {
        fatalError(
            "DependencyKit's runtime shortcut \(shortcut) disagrees with the public API: it found \(found), "
                + "the public API \(expected). This Swift runtime does not behave as "
                + "Sources/DependencyKit/Internal/RuntimeShortcuts.swift assumes. Build DependencyKit with the "
                + "`PublicAPIOnly` package trait (`swift build --traits PublicAPIOnly`, or "
                + "`.package(..., traits: [\"PublicAPIOnly\"])`), and report the platform and Swift version."
        )
    }

    /// Checks a task-local read (1) against `TaskLocal.get()`.
    @usableFromInline
    static func taskLocal(found: UnsafeRawPointer?, expected: UnsafeRawPointer?) {
        guard found != expected else { return }
        disagreement(
            "`swift_task_localValueGet`", found: String(describing: found), expected: String(describing: expected))
    }

    /// Checks the current task's address (2) against `withUnsafeCurrentTask`, whose task hashes and
    /// compares by that address.
    @usableFromInline
    static func currentTask(_ found: UnsafeRawPointer?) {
        let expected = withUnsafeCurrentTask { $0?.hashValue }
        guard found?.hashValue != expected else { return }
        disagreement(
            "`swift_task_getCurrent`", found: String(describing: found),
            expected: expected == nil ? "no task" : "another task")
    }

    /// Checks the per-thread scope (3) against the task-local's chain.
    @usableFromInline
    static func threadScope(found: UnsafeRawPointer, expected: UnsafeRawPointer) {
        guard found != expected else { return }
        disagreement(
            "per-thread scope chain", found: "frame \(found)", expected: "frame \(expected) (`TaskLocal.get()`)")
    }

    /// Checks a kept conversion (4): it must be the container it was read for.
    @usableFromInline
    static func conversion<Converted>(_ converted: Converted, of container: AnyObject) {
        let object = converted as AnyObject
        guard object !== container else { return }
        disagreement(
            "kept conversion to \(Converted.self)", found: "a \(type(of: object)) at \(address(of: object))",
            expected: "its container, a \(type(of: container)) at \(address(of: container))")
    }
}
