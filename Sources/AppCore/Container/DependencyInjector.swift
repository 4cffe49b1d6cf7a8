public import DependencyKit

/// Holds AppCore's container: the global one, and the one scoped to the current task.
///
/// ```swift
/// DependencyInjector.dependencies = AppDependency()        // at launch, from any thread
/// let worker = DependencyInjector.dependencies.resolveUsersWorker()
/// DependencyInjector.reset()                               // back to a fresh CoreDependency
/// ```
///
/// The blog post's spelling of an ``DependencyKit/Injector``: reading ``dependencies`` takes no lock,
/// and inside `withDependencies(_:_:operation:)` it returns the scoped container instead, for that
/// task and its child tasks only.
public enum DependencyInjector {
    /// The injector behind ``dependencies``; serves a ``CoreDependency`` until another container is
    /// installed.
    public static let injector = Injector<any Dependency> { CoreDependency() }

    /// The container in effect for the current task; setting it installs a new global container.
    @inlinable
    public static var dependencies: any Dependency {
        @inline(__always) get { injector.dependencies }
        set { injector.dependencies = newValue }
    }

    /// The container in effect, as the richer container protocol an app declares on top of
    /// ``Dependency`` (see ``DependencyKit/Injector/dependencies(as:)``).
    /// - Parameter type: The refined container type, such as `(any AppDependencies).self`.
    /// - Returns: The container in effect, as `type`.
    @inlinable
    public static func dependencies<Refined>(as type: Refined.Type) -> Refined {
        injector.dependencies(as: type)
    }

    /// Installs a fresh ``CoreDependency`` (or the default set with ``setDefault(_:)``) as the global
    /// container.
    public static func reset() { injector.reset() }

    /// Changes how the default container is made, and installs one made that way.
    /// - Parameter makeDefault: Makes the container served after this call and after each ``reset()``.
    public static func setDefault(_ makeDefault: @escaping @Sendable () -> any Dependency) {
        injector.setDefault(makeDefault)
    }
}

/// Adopt to read AppCore's container as `dependencies`.
///
/// ```swift
/// struct LoginViewModel: HasDependencies {
///     lazy var worker = dependencies.resolveAuthenticationWorker()
/// }
/// ```
public protocol HasDependencies {}

extension HasDependencies {
    /// The container in effect for the current task (see ``DependencyInjector``).
    @inlinable
    public var dependencies: any Dependency {
        @inline(__always) get { DependencyInjector.dependencies }
    }

    /// The container in effect for the current task, from a static context.
    @inlinable
    public static var dependencies: any Dependency {
        @inline(__always) get { DependencyInjector.dependencies }
    }
}
