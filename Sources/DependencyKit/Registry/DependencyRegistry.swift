/// Registrations looked up by type and optional tag at run time: the model of the proof of
/// concept that led to Dip.
///
/// Register an instance (shared: every resolve returns it) or a factory (fresh: called on every
/// resolve) for a type — usually a protocol existential — optionally under a tag, then resolve
/// with the type inferred from the call site:
///
/// ```swift
/// let registry = DependencyRegistry()
/// registry.register((any WebServiceType).self, instance: WebService())
/// registry.register((any FriendsProvider).self) { tag in
///     DummyFriendsProvider(user: tag?.value(as: String.self) ?? "Jane Doe")
/// }
/// registry.register((any FriendsProvider).self, tag: "me") { PlistFriendsProvider(plist: "myfriends") }
///
/// let mine: any FriendsProvider = try registry.resolve(tag: "me")     // PlistFriendsProvider
/// let bob: any FriendsProvider = try registry.resolve(tag: "bob")     // Dummy, user "bob"
/// let web: any WebServiceType = try registry.resolve()                // the one WebService
/// ```
///
/// - **Fallback.** Resolving with a tag uses the registration under that tag, else the
///   untagged one; a factory receives the tag that was asked for either way.
/// - **Errors, not crashes.** A missing registration throws ``DependencyRegistry/Error/notRegistered(type:tag:)``,
///   which names the type and the tag.
/// - **Replace.** Registering again for the same type and tag replaces the registration.
/// - **Thread-safe.** Register and resolve from any thread. Factories run outside the
///   registry's lock, so a factory may resolve from the same registry.
///
/// ## Registry or container?
///
/// A container's resolve methods are checked by the compiler: nothing can be missing, and an
/// override is found by reading code. Prefer them. Reach for a registry when the set of
/// implementations is only known at run time: plugins loaded by name, variants behind a
/// feature flag, a per-tenant implementation chosen by a tenant identifier. A container can
/// own the registry and serve it like any other dependency:
///
/// ```swift
/// open func resolvePlugins() -> DependencyRegistry { shared { DependencyRegistry() } }
/// ```
public final class DependencyRegistry: Sendable {
    private struct Key: Hashable {
        let type: ObjectIdentifier
        let tag: Tag?
    }

    @usableFromInline
    struct Registration: Sendable {
        /// Returns the instance, or makes a value, for the requested tag.
        let produce: @Sendable (Tag?) throws -> Any
        /// The registered type as the runtime prints it, computed once at registration.
        @usableFromInline
        let typeName: String

        /// The name in diagnostics of a resolution of the type `typeName` with `tag`, served by the tag's
        /// own registration or the fallback. Diagnostics tell resolutions apart by name, type and registry;
        /// the name carries the tag, because a factory registered under one tag may legitimately resolve
        /// the same type under another (a decorator over the untagged registration).
        @usableFromInline
        static func name(_ typeName: String, tag: Tag?) -> String {
            tag.map { "resolve(\(typeName), tag: \($0))" } ?? "resolve(\(typeName))"
        }

        /// The instance, or a new value from the factory for the requested tag.
        @usableFromInline
        func value(for tag: Tag?) throws(Error) -> Any {
            do {
                return try produce(tag)
            } catch let error as Error {
                throw error
            } catch {
                throw .factoryFailed(type: typeName, tag: tag, reason: String(describing: error))
            }
        }
    }

    private let registrations = Locked<[Key: Registration]>([:])

    /// Creates an empty registry.
    public init() {}

    /// Registers `instance` for `type`: every resolve returns this same instance.
    ///
    /// - Parameters:
    ///   - type: The type resolved, usually a protocol existential such as
    ///     `(any WebServiceType).self`; inferred from `instance` when omitted.
    ///   - tag: The tag to register under, or `nil` for the fallback registration.
    ///   - instance: The instance to return.
    public func register<T: Sendable>(
        _ type: T.Type = T.self,
        tag: (any Hashable & Sendable)? = nil,
        instance: T
    ) {
        store(type: type, tag: tag) { _ in instance }
    }

    /// Registers `factory` for `type`: every resolve calls it for a new value.
    ///
    /// - Parameters:
    ///   - type: The type resolved, usually a protocol existential such as
    ///     `(any FriendsProvider).self`; inferred from `factory` when omitted.
    ///   - tag: The tag to register under, or `nil` for the fallback registration.
    ///   - factory: Makes a value. Runs outside the registry's lock. It may resolve other
    ///     registrations with `try`: their ``DependencyRegistry/Error``s (a missing registration, a cycle)
    ///     reach the caller of ``resolve(_:tag:)`` as they are; any other error it throws arrives
    ///     as ``DependencyRegistry/Error/factoryFailed(type:tag:reason:)``.
    public func register<T>(
        _ type: T.Type = T.self,
        tag: (any Hashable & Sendable)? = nil,
        factory: @escaping @Sendable () throws -> T
    ) {
        store(type: type, tag: tag) { _ in try factory() }
    }

    /// Registers `factory` for `type`, called with the tag each resolve asked for.
    ///
    /// The factory receives the requested tag even when it serves as the fallback for a tag it
    /// was not registered under, so one factory can build a variant per tag:
    ///
    /// ```swift
    /// registry.register((any FriendsProvider).self) { tag in
    ///     DummyFriendsProvider(user: tag?.value(as: String.self) ?? "Jane Doe")
    /// }
    /// ```
    /// - Parameters:
    ///   - type: The type resolved; inferred from `factory` when omitted.
    ///   - tag: The tag to register under, or `nil` for the fallback registration.
    ///   - factory: Makes a value for the requested tag (`nil` when none was asked for). Runs
    ///     outside the registry's lock; what it throws reaches the caller of ``resolve(_:tag:)``
    ///     as for ``register(_:tag:factory:)-(_,_,()->T)``.
    public func register<T>(
        _ type: T.Type = T.self,
        tag: (any Hashable & Sendable)? = nil,
        factory: @escaping @Sendable (Tag?) throws -> T
    ) {
        store(type: type, tag: tag, factory)
    }

    /// Removes the registration for `type` under `tag`, if any.
    /// - Parameters:
    ///   - type: The registered type.
    ///   - tag: The tag it was registered under, or `nil` for the untagged registration.
    public func unregister<T>(_ type: T.Type, tag: (any Hashable & Sendable)? = nil) {
        let removed = registrations.withLock {
            $0.removeValue(forKey: Key(type: ObjectIdentifier(type), tag: tag.map(Tag.init)))
        }
        withExtendedLifetime(removed) {}
    }

    /// Whether resolving `type` with `tag` would find a registration (with the fallback).
    /// - Parameters:
    ///   - type: The requested type.
    ///   - tag: The requested tag, or `nil`.
    /// - Returns: `true` if ``resolve(_:tag:)`` would not throw.
    public func isRegistered<T>(_ type: T.Type, tag: (any Hashable & Sendable)? = nil) -> Bool {
        lookup(type, tag: tag.map(Tag.init)) != nil
    }

    /// Returns the registered instance, or a new value from the registered factory.
    ///
    /// The type comes from the call site:
    ///
    /// ```swift
    /// let provider: any FriendsProvider = try registry.resolve(tag: "me")
    /// ```
    /// - Parameters:
    ///   - type: The requested type; inferred from the context when omitted.
    ///   - tag: The tag to look for first; the untagged registration is the fallback.
    /// - Returns: The instance or a new value.
    /// - Throws: ``DependencyRegistry/Error/notRegistered(type:tag:)`` when neither the tagged nor the
    ///   untagged registration exists; ``DependencyRegistry/Error/cycle(_:)`` when cycle checking is on and
    ///   this resolution is already in progress in the current task (a factory that resolves what
    ///   it is registered for).
    @inlinable
    public func resolve<T>(_ type: T.Type = T.self, tag: (any Hashable & Sendable)? = nil) throws(Error) -> T {
        let requestedTag = tag.map(Tag.init)
        let registration = try registration(for: type, tag: requestedTag)
        return try withResolution(
            Registration.name(registration.typeName, tag: requestedTag),
            of: type,
            lifetime: .registry,
            container: self,
            cycleError: Error.cycle
        ) { () throws(Error) -> T in
            let value = try registration.value(for: requestedTag)
            guard let typed = value as? T else {
                fatalError("A registration for \(T.self) produced a \(Swift.type(of: value))")
            }
            return typed
        }
    }

    /// The registration that serves `type` with `tag`.
    @usableFromInline
    func registration(for type: Any.Type, tag: Tag?) throws(Error) -> Registration {
        // `try? registry.resolve() ?? fallback` asks for `Optional<T>`: serve it from `T`'s registration.
        let optional = type as? any OptionalRegistration.Type
        if let found = lookup(type, tag: tag) ?? optional.flatMap({ lookup($0.wrappedType, tag: tag) }) { return found }
        throw .notRegistered(type: String(describing: type), tag: tag)
    }

    /// The registration for `type` under `tag`, else the untagged one (a fallback).
    private func lookup(_ type: Any.Type, tag: Tag?) -> Registration? {
        let type = ObjectIdentifier(type)
        return registrations.withLock { registrations in
            tag.flatMap { registrations[Key(type: type, tag: $0)] } ?? registrations[Key(type: type, tag: nil)]
        }
    }

    /// Registers `produce` for `type` under `tag`, replacing the registration there.
    func store(type: Any.Type, tag: (any Hashable & Sendable)?, _ produce: @escaping @Sendable (Tag?) throws -> Any) {
        let key = Key(type: ObjectIdentifier(type), tag: tag.map(Tag.init))
        let registration = Registration(produce: produce, typeName: String(describing: type))
        // The replaced registration is released after unlocking: dropping the last reference to
        // an instance runs its deinit, which is user code.
        let replaced = registrations.withLock { $0.updateValue(registration, forKey: key) }
        withExtendedLifetime(replaced) {}
    }
}

extension DependencyRegistry {
    /// The tag of a registration in a ``DependencyRegistry``: any `Hashable & Sendable` value.
    ///
    /// Registries take tags as plain values — a `String`, an enum case, a tenant identifier — and
    /// wrap them in a `Tag`; you meet the wrapper in a factory that receives the requested
    /// tag and in ``DependencyRegistry/Error``. Two tags are equal when their values have the same type and
    /// are equal. Tags appear in errors and traces: never use a secret as a tag.
    ///
    /// ```swift
    /// registry.register((any FriendsProvider).self) { tag in
    ///     DummyFriendsProvider(user: tag?.value(as: String.self) ?? "Jane Doe")
    /// }
    /// ```
    public struct Tag: Hashable, Sendable, CustomStringConvertible {
        /// The wrapped value.
        public let base: any Hashable & Sendable

        /// Wraps a tag value.
        /// - Parameter base: The tag; wrapping a `Tag` returns it unchanged.
        public init(_ base: any Hashable & Sendable) {
            if let tag = base as? Tag {
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
        public static func == (lhs: Tag, rhs: Tag) -> Bool {
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
}

extension DependencyRegistry {
    /// Why a ``DependencyRegistry`` could not resolve a type.
    public enum Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        /// Nothing is registered for `type` — neither with `tag` (when one was asked for) nor
        /// without a tag.
        /// - Parameters:
        ///   - type: The requested type as the runtime prints it (`FriendsProvider` for
        ///     `any FriendsProvider`).
        ///   - tag: The requested tag, if any.
        case notRegistered(type: String, tag: Tag?)

        /// The resolution requires itself: a registered factory resolved, directly or through other
        /// registrations, what it is registered for. Thrown when cycle checking is on (see
        /// ``Diagnostics/checksCycles``), so a test can catch it.
        /// - Parameter cycle: The chain of resolutions, outermost first.
        case cycle(Diagnostics.CycleError)

        /// The registered factory for `type` threw an error of its own.
        /// - Parameters:
        ///   - type: The registered type as the runtime prints it.
        ///   - tag: The tag of the registration that threw, if any.
        ///   - reason: The factory's error, as it describes itself.
        case factoryFailed(type: String, tag: Tag?, reason: String)

        /// A one-line explanation that names the type and the tag.
        public var description: String {
            switch self {
            case .notRegistered(let type, nil):
                "No registration for \(type)"
            case .notRegistered(let type, let tag?):
                "No registration for \(type) with tag \(tag), and none without a tag"
            case .cycle(let cycle):
                cycle.description
            case .factoryFailed(let type, nil, let reason):
                "The factory registered for \(type) failed: \(reason)"
            case .factoryFailed(let type, let tag?, let reason):
                "The factory registered for \(type) with tag \(tag) failed: \(reason)"
            }
        }
    }
}
