public import DependencyKit

/// Holds AppCore's container: the global one, and the one scoped to the current task.
///
/// ```swift
/// DependencyInjector.dependencies = AppDependency()        // at launch, from any thread
/// let worker = DependencyInjector.dependencies.resolveUsersWorker()
/// DependencyInjector.reset()                               // back to a fresh CoreDependency
/// ```
///
/// Reading ``DependencyKit/DependencyInjecting/dependencies`` takes no lock. Inside
/// `withDependencies(_:operation:)` it returns the scoped container instead, for that task and
/// its child tasks only.
public enum DependencyInjector: DependencyInjecting {
    /// The storage behind ``DependencyKit/DependencyInjecting/dependencies``; serves a
    /// ``CoreDependency`` until another container is installed.
    public static let storage = ContainerStorage<any Dependency> { CoreDependency() }
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
