/// A container protocol that knows the injector holding its global instance.
///
/// Refine this protocol with your container protocol and name your injector once; the engine
/// then finds the right storage from any container value, so generic tools such as
/// ``withDependencies(_:operation:)-(_,()->R)``, ``DependencyContext`` and the testing trait
/// work with any container declared this way:
///
/// ```swift
/// public protocol Dependency: InjectableContainer where Injector == DependencyInjector {
///     func resolveClock() -> any Clock
/// }
/// ```
public protocol InjectableContainer: DependencyContainer, Sendable {
    /// The injector whose storage holds containers of this kind.
    associatedtype Injector: DependencyInjecting
}

extension InjectableContainer {
    /// This container as the injector's container type.
    ///
    /// Every `Self` is an `Injector.Container` when the container protocol is declared as
    /// documented (`protocol P: InjectableContainer where Injector == I` with
    /// `I.Container == any P`); a mismatch is a programming error caught the first time the
    /// container is scoped or installed.
    @inlinable
    package var asInjectorContainer: Injector.Container {
        guard let container = self as? Injector.Container else {
            fatalError(
                "\(Self.self) is not a \(Injector.Container.self): declare the container protocol as "
                    + "`protocol P: InjectableContainer where Injector == I` with `I.Container == any P`"
            )
        }
        return container
    }
}
