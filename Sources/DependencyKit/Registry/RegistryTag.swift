/// The tag of a registration in a ``DependencyRegistry``: any `Hashable & Sendable` value.
///
/// Registries take tags as plain values — a `String`, an enum case, a tenant identifier — and
/// wrap them in a `RegistryTag`; you meet the wrapper in a factory that receives the requested
/// tag and in ``RegistryError``. Two tags are equal when their values have the same type and
/// are equal. Tags appear in errors and traces: never use a secret as a tag.
///
/// ```swift
/// registry.register((any FriendsProvider).self) { tag in
///     DummyFriendsProvider(user: tag?.value(as: String.self) ?? "Jane Doe")
/// }
/// ```
public struct RegistryTag: Hashable, Sendable, CustomStringConvertible {
    /// The wrapped value.
    public let base: any Hashable & Sendable

    /// Wraps a tag value.
    /// - Parameter base: The tag; wrapping a `RegistryTag` returns it unchanged.
    public init(_ base: any Hashable & Sendable) {
        if let tag = base as? RegistryTag {
            self = tag
        } else {
            self.base = base
        }
    }

    /// The tag's value if it is a `Value`.
    /// - Parameter type: The type to read the value as.
    /// - Returns: The value, or `nil` if the tag holds another type.
    public func value<Value>(as type: Value.Type = Value.self) -> Value? {
        base as? Value
    }

    /// The tag as written in code: `"me"` for a string, `premium` for an enum case.
    public var description: String {
        if let string = base as? String { return "\"\(string)\"" }
        return String(describing: base)
    }

    /// Whether two tags hold equal values of the same type.
    /// - Parameters:
    ///   - lhs: A tag.
    ///   - rhs: Another tag.
    /// - Returns: `true` when both wrap the same type and the values are equal.
    public static func == (lhs: RegistryTag, rhs: RegistryTag) -> Bool {
        // Compared by exact type first: `AnyHashable` would call `1` and `UInt8(1)` the same tag.
        guard type(of: lhs.base) == type(of: rhs.base) else { return false }
        func isEqual<Value: Hashable>(_ value: Value) -> Bool { rhs.base as? Value == value }
        return isEqual(lhs.base)
    }

    /// Hashes the value together with its type, consistent with ``==(_:_:)``.
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type(of: base)))
        base.hash(into: &hasher)
    }
}
