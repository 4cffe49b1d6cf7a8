/// A named lifetime that a container can end on demand: a session that ends at log-out, a
/// document that closes, a tenant that is switched.
///
/// Declare a scope once, as a static constant — the value is the key, so there is no string to
/// mistype — then hold instances in it with ``DependencyContainer/scoped(_:_:fileID:line:column:_:)``
/// and end them with ``DependencyContainer/resetScope(_:)``:
///
/// ```swift
/// extension DependencyScope {
///     static let visit = DependencyScope("visit")
/// }
///
/// open func resolveGuestBook() -> GuestBook { scoped(.visit) { GuestBook() } }
///
/// container.resetScope(.visit)   // the next resolveGuestBook() makes a new GuestBook
/// ```
///
/// Two scopes are equal only if they are the same constant: `DependencyScope()` written twice
/// makes two scopes, even with the same name.
///
/// A scope can also be made at run time — one per open document, one per tenant — and kept in the
/// object it belongs to. It ends when its last copy is gone: no resolve can name it again, so each
/// container that held instances in it frees them, with what it kept to find them, during a later
/// scoped resolve that adds an instance (in batches, so that the cost per resolve stays constant). To
/// release a run-time scope's instances at once, reset it before you let it go.
public struct DependencyScope: Hashable, Sendable, CustomStringConvertible {
    /// What tells this scope apart from every other: unique in the process, never reused.
    @usableFromInline
    let id: Int
    /// The scope's name in diagnostics.
    public let name: String
    /// What tells whether the scope is still alive: containers hold it weakly.
    let token: Token

    /// Shared by every copy of one scope; gone when the last copy is.
    final class Token: Sendable {}

    private static let nextID = AtomicWord(0)

    /// Creates a scope distinct from every other scope in the process.
    /// - Parameters:
    ///   - name: The scope's name in diagnostics; where it is declared when omitted.
    ///   - fileID: Names an unnamed scope; leave the default.
    ///   - line: Names an unnamed scope; leave the default.
    public init(_ name: String? = nil, fileID: String = #fileID, line: UInt = #line) {
        id = Self.nextID.add(1) + 1
        self.name = name ?? "\(fileID):\(line)"
        token = Token()
    }

    /// The scope's name.
    public var description: String { name }

    /// Whether two values are the same scope.
    /// - Parameters:
    ///   - lhs: A scope.
    ///   - rhs: Another scope.
    /// - Returns: `true` if both come from the same `DependencyScope()` call.
    public static func == (lhs: DependencyScope, rhs: DependencyScope) -> Bool { lhs.id == rhs.id }

    /// Hashes the scope's identity.
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
