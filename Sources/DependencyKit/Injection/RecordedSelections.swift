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

    static func key<C, T>(_ select: @escaping @Sendable (C) -> T, on container: AnyObject) -> Key? {
        let (entryPoint, context) = unsafeBitCast(select, to: (UnsafeRawPointer, UnsafeRawPointer?).self)
        guard context == nil else { return nil }
        return Key(
            entryPoint: UInt(bitPattern: Int(bitPattern: entryPoint)), container: ObjectIdentifier(type(of: container)),
            value: ObjectIdentifier(T.self))
    }

    static func selection(for key: Key) -> String? { table.withLock { $0[key] } }

    static func remember(_ selection: String, for key: Key) { table.withLock { $0[key] = selection } }
}
