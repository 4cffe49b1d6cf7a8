/// A namespace that owns the storage of one kind of container.
///
/// Declaring an injector takes two lines; everything else comes from this protocol's
/// extension:
///
/// ```swift
/// public enum DependencyInjector: DependencyInjecting {
///     public static let storage = ContainerStorage<any Dependency> { CoreDependency() }
/// }
///
/// DependencyInjector.dependencies = AppDependency()   // at launch
/// let worker = DependencyInjector.dependencies.resolveUsersWorker()
/// ```
public protocol DependencyInjecting {
    /// The container type served, usually `any YourContainerProtocol`.
    associatedtype Container: Sendable

    /// The storage holding the global container and the scopes of this injector.
    static var storage: ContainerStorage<Container> { get }
}

extension DependencyInjecting {
    /// The container in effect for the current task: the innermost scope's, else the global one.
    ///
    /// Setting it installs a new global container, from any thread; live scopes keep theirs.
    @inlinable
    public static var dependencies: Container {
        // Always inlined: a read is a few loads and one retain, cheaper than the call itself.
        @inline(__always) get { storage.current }
        set { storage.install(newValue) }
    }

    /// Installs a fresh default container as the global one.
    public static func reset() {
        storage.reset()
    }
}
