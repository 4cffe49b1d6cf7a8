/// A namespace that owns the storage of one kind of container.
///
/// Declaring an injector takes two lines; everything else comes from this protocol's
/// extension:
///
/// ```swift
/// enum GreetingInjector: DependencyInjecting {
///     static let storage = ContainerStorage<any GreetingDependency> { CoreGreetingDependency() }
/// }
///
/// GreetingInjector.dependencies = EveningDependency()   // at launch
/// let greeter = GreetingInjector.dependencies.resolveGreeter()
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
    ///
    /// DependencyKitTesting's guard does not count a reset as a global install: it puts the default
    /// back rather than swapping in a container of the caller's.
    public static func reset() {
        storage.reset()
    }

    /// Changes how this injector makes its default container, and installs one made that way.
    ///
    /// A library declares its injector with its own default container; an app that subclasses
    /// that container makes its subclass the default at launch, so that ``reset()`` (and every
    /// test that resets) comes back to the app's container rather than the library's:
    ///
    /// ```swift
    /// GreetingInjector.setDefault { EveningDependency() }
    /// ```
    /// - Parameter makeDefault: Makes the container served after this call and after each
    ///   ``reset()``.
    public static func setDefault(_ makeDefault: @escaping @Sendable () -> Container) {
        storage.setDefault(makeDefault)
    }
}

extension DependencyInjecting {
    /// The container in effect, as the richer container protocol your app declares on top of a
    /// library's.
    ///
    /// An app adds its own resolves by refining the library's protocol and subclassing its
    /// container; this accessor gives app code a typed container without a cast at each call
    /// site. Wrap it once in the app's own `HasDependencies`-style protocol:
    ///
    /// ```swift
    /// protocol WeatherGreetingDependency: GreetingDependency { func resolveWeather() -> any Weather }
    /// final class WeatherDependency: CoreGreetingDependency, WeatherGreetingDependency, @unchecked Sendable { ... }
    ///
    /// protocol HasWeatherDependencies {}
    /// extension HasWeatherDependencies {
    ///     var dependencies: any WeatherGreetingDependency {
    ///         GreetingInjector.dependencies(as: (any WeatherGreetingDependency).self)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter type: The refined container type, such as `(any AppDependencies).self`.
    /// - Returns: The container in effect, as `type`.
    /// - Precondition: The container in effect conforms to `type`. Install your app's container
    ///   at launch and base test containers on it; a mismatch stops with a message naming both
    ///   types.
    @inlinable
    @inline(__always)
    public static func dependencies<Refined>(as type: Refined.Type) -> Refined {
        // The cast is a conformance lookup; a container keeps each conversion it made (see
        // `ContainerConversions`), so only its first read as `Refined` pays it. One call on the
        // storage, so that it is borrowed rather than retained around the read.
        storage.current(as: type)
    }
}

/// A container protocol that knows the injector holding its global instance.
///
/// Refine this protocol with your container protocol and name your injector once; the engine
/// then finds the right storage from any container value, so generic tools such as
/// ``withDependencies(_:operation:)-(_,()->R)``, ``DependencyContainer/Context`` and the testing trait
/// work with any container declared this way:
///
/// ```swift
/// protocol GreetingDependency: InjectableContainer where Injector == GreetingInjector {
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
