/// The base class of every DependencyKit container.
///
/// A container is an ordinary Swift protocol whose requirements are resolve methods, with
/// default implementations in a protocol extension, plus an `open` class that adopts it. The
/// protocol refines ``InjectableContainer`` (and so inherits from this class); this class gives
/// every container an identity, which is what lets the engine keep per-container state such as
/// shared instances and install the container without boxing it.
///
/// You rarely use `DependencyContainer` directly. Declare your container protocol and class:
///
/// ```swift
/// public protocol Dependency: InjectableContainer where Injector == DependencyInjector {
///     func resolveClock() -> any Clock
/// }
///
/// extension Dependency {
///     public func resolveClock() -> any Clock { SystemClock() }
/// }
///
/// open class CoreDependency: DependencyContainer, Dependency, @unchecked Sendable {
///     open func resolveClock() -> any Clock { SystemClock() }
/// }
/// ```
///
/// ## Sendable
///
/// Containers are shared by every thread that resolves, so they are `Sendable`. A non-final
/// class can only state that with `@unchecked Sendable`; this class is sound because it holds
/// nothing mutable of its own outside a lock. Subclasses keep that promise by storing only
/// `let` properties of `Sendable` types (configuration values, other containers) — a resolve
/// method that needs state should use a shared instance instead of a stored `var`.
open class DependencyContainer: @unchecked Sendable {
    /// The shared instances of this container (see `shared(_:fileID:line:column:_:)`).
    ///
    /// Nothing reads it unless a resolve asks for a shared instance, so fresh resolves never
    /// touch it; a container that never shares pays one small lock and one atomic word.
    @usableFromInline
    package let sharedInstances = SharedInstances()

    /// Creates a container.
    public init() {}
}
