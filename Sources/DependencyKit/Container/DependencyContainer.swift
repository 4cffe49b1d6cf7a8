/// The base class of every DependencyKit container.
///
/// A container is an ordinary Swift protocol whose requirements are resolve methods, plus an
/// `open` class that implements every one of them. The protocol refines ``InjectableContainer``
/// (and so inherits from this class); this class gives every container an identity, which is
/// what lets the engine keep per-container state such as shared instances and install the
/// container without boxing it.
///
/// You rarely use `DependencyContainer` directly. Declare your container protocol, the builders
/// that hold the construction logic once, and the class:
///
/// ```swift
/// protocol GreetingDependency: InjectableContainer where Injector == GreetingInjector {
///     func resolveClock() -> any Clock
///     func resolveGreeter() -> any Greeter
/// }
///
/// extension GreetingDependency {
///     func makeGreeter() -> any Greeter { TimeOfDayGreeter(clock: resolveClock()) }
/// }
///
/// class CoreGreetingDependency: DependencyContainer, GreetingDependency, @unchecked Sendable {
///     func resolveClock() -> any Clock { live { SystemClock() } }
///     func resolveGreeter() -> any Greeter { fresh { makeGreeter() } }
/// }
/// ```
///
/// The class implements every requirement itself — the compiler rejects it otherwise — so a
/// subclass that overrides one resolve can never be silently ignored. Test doubles that
/// implement only one resolve adopt ``PartialContainer`` and take defaults for the rest.
///
/// ## Sendable
///
/// Containers are shared by every thread that resolves, so they are `Sendable`. A non-final
/// class can only state that with `@unchecked Sendable`; this class is sound because it holds
/// nothing mutable of its own outside a lock. Subclasses keep that promise by storing only
/// `let` properties of `Sendable` types (configuration values, other containers) — a resolve
/// method that needs state should use a shared instance instead of a stored `var`.
open class DependencyContainer: DependencyResolving, @unchecked Sendable {
    /// The shared instances of this container (see `shared(_:fileID:line:column:_:)`).
    ///
    /// Nothing reads it unless a resolve asks for a shared instance, so fresh resolves never
    /// touch it; a container that never shares pays one small lock and one atomic word.
    @usableFromInline
    package let sharedInstances = SharedInstances()

    /// Creates a container.
    public init() {}
}

/// A container that implements only some of its protocol's resolves and takes the protocol's
/// defaults for the rest: a test double.
///
/// A container protocol gives defaults only to containers that adopt this marker, in an
/// extension constrained to it. The production class does not adopt it, so it must implement
/// every resolve itself: forgetting one is the compile error "type 'CoreGreetingDependency' does
/// not conform to protocol 'GreetingDependency'", not an override that the protocol silently
/// ignores.
///
/// ```swift
/// extension GreetingDependency where Self: PartialContainer {
///     func resolveClock() -> any Clock { live { SystemClock() } }
///     func resolveGreeter() -> any Greeter { fresh { makeGreeter() } }
/// }
///
/// final class NightDouble: DependencyContainer, GreetingDependency, PartialContainer, @unchecked Sendable {
///     func resolveClock() -> any Clock { fresh { FixedClock(fixedHour: 23) } }
/// }
/// // resolveGreeter() comes from the defaults and reads the fixed clock.
/// ```
public protocol PartialContainer: DependencyContainer {}
