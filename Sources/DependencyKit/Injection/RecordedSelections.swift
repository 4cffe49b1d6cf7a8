internal import _DependencyKitShims

/// The resolves that value overrides' closures were recorded selecting, by closure and container type,
/// so that a middleware's per-request `.override({ $0.resolveRequestID() }, with: id)` records its
/// closure once per process instead of once per request.
///
/// Only a closure that captures nothing is remembered, by its function's address: that code is the same
/// for the life of the process, and an override's closure must call the resolve it selects and nothing
/// else, so on a container of the same class it selects the same resolve. A closure with a context (one
/// that captures, or a thunk) is recorded every time: its context's address can be reused by another.
/// A selection is remembered only when the closure called the resolve on the container it was given.
enum RecordedSelections {
    struct Key: Hashable, Sendable {
        let entryPoint: UInt
        let container: ObjectIdentifier
        let value: ObjectIdentifier
    }

    // Entries are never removed: one per override call site and container class.
    private static let table = Locked<[Key: String]>([:])

    /// A selection published for reads without a lock: the first remembered in its slot.
    private final class Remembered: Sendable {
        let key: Key
        let selection: String
        init(key: Key, selection: String) { (self.key, self.selection) = (key, selection) }
    }

    /// Slots of ``Remembered`` selections, by entry point: each is written once, from `0`, and its
    /// selection is never released, like the table's entries, so a reader needs no lock and no
    /// announcement; a key whose slot holds another's is found in the table.
    private static let slots = AtomicWord(0, spareWords: slotCount - 1)
    private static let slotCount = 64

    private static func slot(of key: Key) -> UnsafeMutablePointer<Int> {
        slots.word + Int((key.entryPoint >> 4) % UInt(slotCount))
    }

    static func key<C, T>(_ select: @escaping @Sendable (C) -> T, on container: AnyObject) -> Key? {
        let (entryPoint, context) = unsafeBitCast(select, to: (UnsafeRawPointer, UnsafeRawPointer?).self)
        guard context == nil else { return nil }
        return Key(
            entryPoint: UInt(bitPattern: Int(bitPattern: entryPoint)), container: ObjectIdentifier(type(of: container)),
            value: ObjectIdentifier(T.self))
    }

    static func selection(for key: Key) -> String? {
        if let published = UnsafeRawPointer(bitPattern: dk_atomic_load_acquire(slot(of: key))) {
            let remembered = Unmanaged<Remembered>.fromOpaque(published).takeUnretainedValue()
            if remembered.key == key { return remembered.selection }
        }
        return table.withLock { $0[key] }
    }

    static func remember(_ selection: String, for key: Key) {
        table.withLock { $0[key] = selection }
        let remembered = Unmanaged.passRetained(Remembered(key: key, selection: selection))
        var empty = 0
        if !dk_atomic_compare_exchange(slot(of: key), &empty, Int(bitPattern: remembered.toOpaque())) {
            remembered.release()
        }
    }
}
