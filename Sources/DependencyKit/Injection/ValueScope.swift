internal import _DependencyKitShims

/// What both forms of an override scope have: a serial number, never reused, by which an `@Inject`
/// holder and a context tell the scope in effect from another.
package protocol OverrideScope: ResolutionInterceptor {
    /// The scope's serial number, never `0`.
    var serialNumber: UInt64 { get }
}

extension Interception {
    /// The override scope in effect for the current task, if any.
    static var overrideScope: (any OverrideScope)? { overrides as? any OverrideScope }
}

/// An override scope whose overrides all answer with valueOverrides, each for a resolve already known: what a
/// server's middleware makes for every request (`injector.withOverrides(.override({ $0.resolveRequestID() },
/// with: id))`).
///
/// It is the other form of an ``OverrideSet``, chosen when the scope is made, and it promises exactly
/// what a set promises for the same overrides (Writing Tests, "What an override promises"): the same
/// answers, innermost first, and the same instances owned — the `shared {}` and `scoped {}` instances
/// resolved inside it are its own, made on first use. What it leaves out is what only other overrides
/// need: no lock, no index, no view, no entry per override; an answer is a scan of a few valueOverrides.
///
/// Which form a scope takes is decided by what it is given, never by what happens to be resolved:
/// - `Injector.withOverrides` whose overrides are all valueOverrides, made outside any override set, gives a
///   value scope; nested in another value scope, it holds the outer scope's valueOverrides after its own. More
///   than ``valueLimit`` valueOverrides, its outer scopes' included, make a set.
/// - A relative override among them, an override set around them, or a test's scope (which reports
///   overrides nothing used) gives an ``OverrideSet``; an override set made inside a value scope takes
///   the value scope's valueOverrides as its outermost entries, so precedence is the same as between two sets.
package final class ValueScope: OverrideScope {
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

    /// The most valueOverrides a value scope holds, its outer scopes' included: an answer scans them, so more
    /// make an override set, whose lookup does not grow with its overrides.
    static let valueLimit = 16

    /// The scope's valueOverrides, innermost first: the first that matches answers.
    let valueOverrides: [ValueOverride]
    package let serialNumber = SerialNumber.next()
    /// The tables of the instances the scope owns (an `OwnedTables`, retained), `0` until the scope first
    /// owns one: most request scopes resolve no `shared {}` of their own.
    private let tables = AtomicWord(0)

    private init(valueOverrides: [ValueOverride]) {
        self.valueOverrides = valueOverrides
        DiagnosticsWord.register(.overrideSet)
    }

    deinit {
        DiagnosticsWord.unregister(.overrideSet)
        UnsafeRawPointer(bitPattern: tables.loadAcquire()).map { Unmanaged<OwnedTables>.fromOpaque($0).release() }
    }

    /// The instances a value scope owns, per container.
    private typealias OwnedTables = Locked<[ObjectIdentifier: OwnedInstances]>

    /// The override scope `overrides` make for `container` inside the scope in effect: a value scope when
    /// they are all valueOverrides and no override set is in effect, an override set otherwise, the scope in
    /// effect when there are none.
    static func scope(_ overrides: [AnyOverride], for container: AnyObject) -> (any ResolutionInterceptor)? {
        let outer = Interception.overrides
        guard !overrides.isEmpty else { return outer }
        // An outer value scope's values stay in effect after these; an outer set, or too many values, make a set.
        let outerValues = outer.map { ($0 as? ValueScope)?.valueOverrides } ?? []
        guard let outerValues, outerValues.count + overrides.count <= valueLimit else {
            return OverrideSet.recording({ overrides.compactMap { $0.prepare(container)?.entry } }, outer: outer).set
        }
        var valueOverrides: [ValueOverride] = []
        valueOverrides.reserveCapacity(overrides.count + outerValues.count)
        for index in overrides.indices {
            switch overrides[index].prepare(container) {
            case .value(let value): valueOverrides.append(value)
            case nil: continue  // malformed, and reported
            case .relative:
                // The values made so far become the set's first entries, in order: a later override of the
                // same resolve still wins over them, as it would in a set made at once.
                let made = valueOverrides
                return OverrideSet.recording(
                    { made.compactMap(\.entry) + overrides[index...].compactMap { $0.prepare(container)?.entry } },
                    outer: outer
                ).set
            }
        }
        valueOverrides.reverse()
        if !outerValues.isEmpty { valueOverrides.append(contentsOf: outerValues) }
        return ValueScope(valueOverrides: valueOverrides)
    }

    package func answer<T>(_ name: String, of _: T.Type, container: AnyObject, base: inout InterceptorBase?) -> T? {
        guard let index = index(of: name, type: ObjectIdentifier(T.self), container: ObjectIdentifier(container)) else {
            return nil
        }
        let value = valueOverrides[index].value.value
        // Of the resolve's own type (not an existential it fits), the value is taken out as it is, not cast.
        guard ObjectIdentifier(Swift.type(of: value)) == ObjectIdentifier(T.self) else { return value as? T }
        func take<Stored>(_ stored: Stored) -> T { unsafeBitCast(stored, to: T.self) }
        return _openExistential(value, do: take)
    }

    package func mayAnswer(_ name: String, of type: ObjectIdentifier, container: ObjectIdentifier) -> Bool {
        index(of: name, type: type, container: container) != nil
    }

    /// Where the innermost value that answers the resolve is.
    private func index(of name: String, type: ObjectIdentifier, container: ObjectIdentifier) -> Int? {
        // By index, reading the fields in place: a loop over the valueOverrides would copy each.
        var index = 0
        while index < valueOverrides.count {
            if valueOverrides[index].key.container == container, valueOverrides[index].key.type == type,
                valueOverrides[index].key.name == name
            {
                return index
            }
            index += 1
        }
        return nil
    }

    package func instances(for container: DependencyContainer) -> OwnedInstances? {
        ownedTables.withLock { Self.instances(in: &$0, for: container) }
    }

    /// The scope's tables, made by the first resolution that needs one; another made at the same time is
    /// dropped.
    private var ownedTables: OwnedTables {
        if let made = UnsafeRawPointer(bitPattern: tables.loadAcquire()) {
            return Unmanaged<OwnedTables>.fromOpaque(made).takeUnretainedValue()
        }
        let made = Unmanaged.passRetained(OwnedTables([:]))
        var found = 0
        if dk_atomic_compare_exchange(tables.word, &found, Int(bitPattern: made.toOpaque())) {
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
