extension DependencyRegistry {
    /// Registers an instance for `type` that is made the first time it is resolved: every resolve
    /// returns that one instance.
    ///
    /// Use it for an instance that is expensive to make or must not be made unless used:
    ///
    /// ```swift
    /// registry.register((any WebServiceType).self, lazyInstance: WebService())
    /// ```
    ///
    /// The instance expression is evaluated lazily, like `??`'s right-hand side. If many threads
    /// resolve it first at the same moment, it is evaluated once and the others wait
    /// for its instance. If it throws, nothing is kept and the next resolve tries again; the
    /// resolve throws ``DependencyRegistry/Error/factoryFailed(type:tag:reason:)``.
    /// - Parameters:
    ///   - type: The type resolved; inferred from `make` when omitted.
    ///   - tag: The tag to register under, or `nil` for the fallback registration.
    ///   - make: The instance, evaluated on first resolve, outside the registry's lock.
    public func register<T: Sendable>(
        _ type: T.Type = T.self,
        tag: (any Hashable & Sendable)? = nil,
        lazyInstance make: @autoclosure @escaping @Sendable () throws -> T
    ) {
        let cell = OnceCell<any Sendable>()
        let name = Registration.name(String(describing: type), tag: tag.map(Tag.init))
        store(type: type, tag: tag) { _ in
            try cell.value(describedBy: { "the lazy instance registered as \(name)" }) { try make() }
        }
    }

    /// Registers an instance for `type` that the registry holds weakly: resolves return it while
    /// something else holds it, and make a new one once it is gone.
    ///
    /// ```swift
    /// registry.register((any EditorSession).self, weakInstance: LiveEditorSession())
    /// ```
    ///
    /// The instance must be a class instance (a protocol existential holding one is fine). Made
    /// once even when threads race, like ``register(_:tag:lazyInstance:)``.
    /// - Parameters:
    ///   - type: The type resolved; inferred from `make` when omitted.
    ///   - tag: The tag to register under, or `nil` for the fallback registration.
    ///   - make: The instance, evaluated whenever none is alive, outside the registry's lock.
    public func register<T: Sendable>(
        _ type: T.Type = T.self,
        tag: (any Hashable & Sendable)? = nil,
        weakInstance make: @autoclosure @escaping @Sendable () throws -> T
    ) {
        let cell = OnceCell<WeakReference>()
        let name = Registration.name(String(describing: type), tag: tag.map(Tag.init))
        store(type: type, tag: tag) { _ in
            try cell.value(describedBy: { "the weak instance registered as \(name)" }, read: { $0.object }) {
                let made = try make()
                let message = "register(_:weakInstance:) needs a class instance, but the one for \(type) is a "
                return (WeakReference(holding: made, orStop: message), made as AnyObject)
            }
        }
    }
}

/// Lets a registry serve `Optional<T>` from the registration of `T`.
protocol OptionalRegistration {
    static var wrappedType: any Any.Type { get }
}

extension Optional: OptionalRegistration {
    static var wrappedType: any Any.Type { Wrapped.self }
}
