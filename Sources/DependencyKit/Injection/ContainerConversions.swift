// `public import`: the lookup is `@inlinable`, so that `dependencies(as:)` in a client module finds a
// conversion with plain loads.
public import DependencyKitAtomics

/// A container's conversions to the container types it is read as, kept by the container itself so
/// that each is made once: the injector's container type, for scopes (see
/// ``ContainerStorage/frame(reusingBindingOf:parent:)``), and an app's refined container protocol,
/// for ``DependencyInjecting/dependencies(as:)``.
///
/// Converting a container to an existential its static type does not name is a dynamic cast, a
/// conformance lookup of 400 to 1,000 instructions. The container keeps each conversion it was
/// asked for in a list of raw blocks whose head sits in a spare word of an allocation it already
/// has (``SharedInstances/conversions``). A block is the converted type's identity, the next block's
/// address, then the converted copy. Blocks are pushed with a compare-and-swap and never removed
/// until the container's `deinit`, so a reader that loaded the head may walk the list without a
/// lock.
///
/// A copy is kept without a reference of its own, because a strong one would be a cycle
/// (container, block, container). That is sound because a copy is only ever read by code that
/// holds the container strongly — a scope frame, or `dependencies(as:)` holding the container it
/// just read — and blocks are freed with the container.
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

    /// Keeps `converted` — the container, which holds exactly one reference to it — in the
    /// container's list, without that reference.
    /// - Returns: Where the copy is kept: this one, or another thread's that was kept first; `nil`
    ///   when `Converted` does not hold the container as its first word (an `AnyHashable`, say),
    ///   which is then not kept: the caller uses `converted` as it is.
    @usableFromInline
    static func add<Converted>(_ converted: Converted, of container: DependencyContainer) -> UnsafeRawPointer? {
        let list = container.sharedInstances.conversions
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
            UnsafeRawPointer(value).load(as: UnsafeRawPointer.self)
                == UnsafeRawPointer(Unmanaged.passUnretained(container).toOpaque())
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
            var expected = head
            if dk_atomic_compare_exchange(list, &expected, Int(bitPattern: block)) {
                return UnsafeRawPointer(block + valueOffset)
            }
            head = expected
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
