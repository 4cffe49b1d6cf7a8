/// A named lifetime that a container can end on demand: a session that ends at log-out, a
/// document that closes, a tenant that is switched.
///
/// Declare a lifetime once, as a static constant — the value is the key, so there is no string to
/// mistype — then hold instances in it with ``DependencyContainer/shared(in:_:fileID:line:column:_:)``
/// and end them with ``DependencyContainer/reset(_:)``:
///
/// ```swift
/// extension Lifetime {
///     static let visit = Lifetime("visit")
/// }
///
/// open func resolveGuestBook() -> GuestBook { shared(in: .visit) { GuestBook() } }
///
/// container.reset(.visit)   // the next resolveGuestBook() makes a new GuestBook
/// ```
///
/// Two lifetimes are equal only if they are the same constant: `Lifetime()` written twice
/// makes two lifetimes, even with the same name.
///
/// A lifetime can also be made at run time — one per open document, one per tenant — and kept in the
/// object it belongs to. It ends when its last copy is gone: no resolve can name it again, so each
/// container that held instances in it frees them, with what it kept to find them, during a later
/// scoped resolve that adds an instance (in batches, so that the cost per resolve stays constant). To
/// release a run-time lifetime's instances at once, reset it before you let it go.
public struct Lifetime: Hashable, Sendable, CustomStringConvertible {
    /// What tells this lifetime apart from every other: unique in the process, never reused.
    @usableFromInline
    let id: Int
    /// The lifetime's name in diagnostics.
    public let name: String
    /// What tells whether the lifetime is still alive: containers hold it weakly.
    let token: Token

    /// Shared by every copy of one lifetime; gone when the last copy is.
    final class Token: Sendable {}

    /// Creates a lifetime distinct from every other lifetime in the process.
    /// - Parameters:
    ///   - name: The lifetime's name in diagnostics; where it is declared when omitted.
    ///   - fileID: Names an unnamed lifetime; leave the default.
    ///   - line: Names an unnamed lifetime; leave the default.
    public init(_ name: String? = nil, fileID: String = #fileID, line: UInt = #line) {
        id = Int(truncatingIfNeeded: SerialNumber.next())
        self.name = name ?? "\(fileID):\(line)"
        token = Token()
    }

    /// The lifetime's name.
    public var description: String { name }

    /// Whether two values are the same lifetime.
    /// - Parameters:
    ///   - lhs: A lifetime.
    ///   - rhs: Another lifetime.
    /// - Returns: `true` if both come from the same `Lifetime()` call.
    public static func == (lhs: Lifetime, rhs: Lifetime) -> Bool { lhs.id == rhs.id }

    /// Hashes the lifetime's identity.
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
