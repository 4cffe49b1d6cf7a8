internal import _DependencyKitShims

/// What both forms of an override scope have: a serial number, never reused, by which an `@Inject`
/// holder and a context tell the scope in effect from another.
package protocol OverrideScope: ResolutionInterceptor {
    /// The scope's serial number, never `0`.
    var serialNumber: UInt64 { get }
}

/// An override scope whose overrides all answer with values, each for a resolve already known: what a
/// server's middleware makes for every request (`injector.withOverrides(.override({ $0.resolveRequestID() },
/// with: id))`).
///
/// It is the other form of an ``OverrideSet``, chosen when the scope is made, and it promises exactly
/// what a set promises for the same overrides (Writing Tests, "What an override promises"): the same
/// answers, innermost first, and the same instances owned — the `shared {}` and `scoped {}` instances
/// resolved inside it are its own, made on first use. What it leaves out is what only other overrides
/// need: no lock, no index, no view, no entry per override; an answer is a scan of a few values.
///
/// Which form a scope takes is decided by what it is given, never by what happens to be resolved:
/// - `Injector.withOverrides`, or `withDependencies` given a container and overrides, whose overrides
///   are all values, made outside any override set, gives a value scope; nested in another value scope,
///   it holds the outer scope's values after its own. More than ``valueLimit`` values, its outer scopes'
///   included, make a set.
/// - A relative override among them, an override set around them, or a test's scope (which reports
///   overrides nothing used) gives an ``OverrideSet``; an override set made inside a value scope takes
///   the value scope's values as its outermost entries, so precedence is the same as between two sets.
///
/// `@unchecked Sendable` is sound: the scope's values and their count are written before the scope is
/// handed to anything else and never again, its serial number is a `let`, and the word of its tables is
/// only read and written atomically (a compare-and-exchange publishes the one table a race makes).
package final class ValueScope: OverrideScope, @unchecked Sendable {
    /// Makes an override for a container, given as an object (``DependencyContainer/Override``).
    typealias Prepare = @Sendable (_ container: AnyObject) -> Made?

    /// An override made for a container.
    enum Made: Sendable {
        case value(ValueOverride)
        /// Makes a relative override's entry: only an override set holds one, and an entry made later
        /// comes later in order.
        case relative(@Sendable () -> OverrideSet.Entry)

        /// The override as an override set's entry.
        var entry: OverrideSet.Entry? {
            switch self {
            case .value(let value): value.entry
            case .relative(let make): make()
            }
        }
    }

    /// One value override: the resolve it answers (its container, type and name) and its value.
    ///
    /// `@unchecked Sendable` is sound here: every field is immutable; `container` is the container the
    /// override was made for, a `Sendable` value held as `AnyObject`, and `value` a `Placeholder` holding
    /// the override's `Sendable` value.
    struct ValueOverride: @unchecked Sendable {
        let key: OverrideSet.Key
        /// The container the override was made for (a `DependencyContainer.Resolving`).
        let container: AnyObject
        let valueType: any Any.Type
        let value: Placeholder

        /// The override as an override set's entry.
        var entry: OverrideSet.Entry? {
            guard let resolving = container as? any DependencyContainer.Resolving else { return nil }
            return OverrideSet.Entry(key: key, container: resolving, valueType: valueType, answer: .value(value))
        }
    }

    /// The most values a value scope holds, its outer scopes' included: an answer scans them, so more
    /// make an override set, whose lookup does not grow with its overrides.
    static let valueLimit = 16

    // The scope's values follow the header of one allocation (`ManagedBuffer`), innermost first, and the
    // word of its tables is in that header.
    private let storage: Storage
    package let serialNumber = SerialNumber.next()

    /// The scope's values, innermost first: the first that matches answers.
    var valueOverrides: [ValueOverride] {
        storage.withUnsafeMutablePointers { header, values in
            Array(UnsafeBufferPointer(start: values, count: header.pointee.count))
        }
    }

    /// The word of the tables of the instances the scope owns (an `OwnedTables`, retained), `0` until the
    /// scope first owns one: most request scopes resolve no `shared {}` of their own. The header is stored
    /// inline in the buffer, so its address is the same for the buffer's life.
    private var tables: UnsafeMutablePointer<Int> {
        storage.withUnsafeMutablePointerToHeader {
            UnsafeMutableRawPointer($0).advanced(by: MemoryLayout<Header>.offset(of: \.tables)!)
                .assumingMemoryBound(to: Int.self)
        }
    }

    private init(storage: Storage) {
        self.storage = storage
        DiagnosticsWord.register(.overrideSet)
    }

    deinit {
        DiagnosticsWord.unregister(.overrideSet)
        UnsafeRawPointer(bitPattern: dk_atomic_load_acquire(tables)).map {
            Unmanaged<OwnedTables>.fromOpaque($0).release()
        }
    }

    /// How many values follow, and the word of the scope's tables.
    private struct Header {
        var count: Int
        var tables: Int
    }

    /// The values of a scope, after its header.
    private final class Storage: ManagedBuffer<Header, ValueOverride> {
        deinit { _ = withUnsafeMutablePointers { header, values in values.deinitialize(count: header.pointee.count) } }
    }

    /// The instances a value scope owns, per container.
    private typealias OwnedTables = Locked<[ObjectIdentifier: OwnedInstances]>

    /// The override scope `overrides` make for `container` inside the scope in effect: a value scope when
    /// they are all values and no override set is in effect, an override set otherwise, the scope in
    /// effect when there are none.
    static func scope(
        _ overrides: UnsafeBufferPointer<AnyOverride>, for container: AnyObject
    ) -> (any ResolutionInterceptor)? {
        let outer = Interception.overrides
        guard !overrides.isEmpty else { return outer }
        // An outer value scope's values stay in effect after these; an outer set, or too many values, make a set.
        let outerValues = outer.map { ($0 as? ValueScope)?.valueOverrides } ?? []
        guard let outerValues, outerValues.count + overrides.count <= valueLimit else {
            return OverrideSet.recording({ overrides.compactMap { $0.prepare(container)?.entry } }, outer: outer).set
        }
        // Filled in place: a request's values are one allocation.
        let storage = unsafeDowncast(
            Storage.create(minimumCapacity: overrides.count + outerValues.count) { _ in Header(count: 0, tables: 0) },
            to: Storage.self)
        let relative: Int? = storage.withUnsafeMutablePointers { header, values in
            for index in overrides.indices {
                switch overrides[index].prepare(container) {
                case .value(let value):
                    (values + header.pointee.count).initialize(to: value)
                    header.pointee.count += 1
                case nil: continue  // malformed, and reported
                case .relative: return index
                }
            }
            var made = UnsafeMutableBufferPointer(start: values, count: header.pointee.count)
            made.reverse()
            (values + header.pointee.count).initialize(from: outerValues, count: outerValues.count)
            header.pointee.count += outerValues.count
            return nil
        }
        let scope = ValueScope(storage: storage)
        guard let relative else { return scope }
        // The values made so far become the set's first entries, in order: a later override of the same
        // resolve still wins over them, as it would in a set made at once.
        let made = scope.valueOverrides.compactMap(\.entry)
        return OverrideSet.recording(
            { made + overrides[relative...].compactMap { $0.prepare(container)?.entry } }, outer: outer
        ).set
    }

    package func answer<T>(_ name: String, of _: T.Type, container: AnyObject, base: inout InterceptorBase?) -> Any? {
        // The value was made as a `T` for this very key, so it is one.
        index(of: name, type: ObjectIdentifier(T.self), container: ObjectIdentifier(container)).map { index in
            storage.withUnsafeMutablePointerToElements { $0[index].value.value }
        }
    }

    package func mayAnswer(_ name: String, of type: ObjectIdentifier, container: ObjectIdentifier) -> Bool {
        index(of: name, type: type, container: container) != nil
    }

    /// Where the innermost value that answers the resolve is.
    private func index(of name: String, type: ObjectIdentifier, container: ObjectIdentifier) -> Int? {
        storage.withUnsafeMutablePointers { header, values in
            for index in 0..<header.pointee.count
            where values[index].key.container == container && values[index].key.type == type
                && values[index].key.name == name
            {
                return index
            }
            return nil
        }
    }

    package func instances(for container: DependencyContainer) -> OwnedInstances? {
        ownedTables.withLock { Self.instances(in: &$0, for: container) }
    }

    /// The scope's tables, made by the first resolution that needs one; another made at the same time is
    /// dropped.
    private var ownedTables: OwnedTables {
        if let made = UnsafeRawPointer(bitPattern: dk_atomic_load_acquire(tables)) {
            return Unmanaged<OwnedTables>.fromOpaque(made).takeUnretainedValue()
        }
        let made = Unmanaged.passRetained(OwnedTables([:]))
        var found = 0
        if dk_atomic_compare_exchange(tables, &found, Int(bitPattern: made.toOpaque())) {
            return made.takeUnretainedValue()
        }
        made.release()
        return Unmanaged<OwnedTables>.fromOpaque(UnsafeRawPointer(bitPattern: found)!).takeUnretainedValue()
    }

    /// `container`'s table in a scope's `tables`, made on first use: what both forms of a scope own.
    static func instances(
        in tables: inout [ObjectIdentifier: OwnedInstances], for container: DependencyContainer
    ) -> OwnedInstances {
        if let made = tables[ObjectIdentifier(container)] { return made }
        let made = OwnedInstances(container: container)
        tables[ObjectIdentifier(container)] = made
        return made
    }
}
