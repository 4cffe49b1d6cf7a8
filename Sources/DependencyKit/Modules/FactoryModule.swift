/// A type that a ``Factory`` creates from a dependency resolved in the composition root and a
/// payload known only at run time.
///
/// The model comes from Pure: a greeting card needs the greeter the composition root owns (its
/// *dependency*) and the name the user typed (its *payload*). Declare both as nested types;
/// either defaults to `Void` when the module needs nothing of that kind. A module that something
/// else creates, and that is only set up afterwards, is a ``ConfiguratorModule`` instead.
///
/// Conforming gives the type a nested `Factory`, so the composition root can write
/// `GreetingCard.Factory(dependency: …)` and the caller `factory.create(payload: …)`:
///
/// ```swift
/// final class GreetingCard: FactoryModule {
///     struct Dependency: Sendable { let greeter: any Greeter }
///     struct Payload { let name: String }
///
///     init(dependency: Dependency, payload: Payload) { … }
/// }
///
/// // In the container:
/// func resolveCardFactory() -> GreetingCard.Factory {
///     .init(dependency: .init(greeter: self.resolveGreeter()))
/// }
///
/// // Where the name is known:
/// let card = cardFactory.create(payload: .init(name: "Ada"))
/// ```
public protocol FactoryModule {
    /// What the composition root provides: resolved once, shared by every module made; `Void`
    /// by default.
    ///
    /// Make it `Sendable` so that the ``Factory`` holding it is `Sendable` too and can be stored
    /// in a container and used from any thread.
    associatedtype Dependency = Void

    /// What the caller provides on each creation; `Void` by default.
    associatedtype Payload = Void

    /// Creates the module.
    /// - Parameters:
    ///   - dependency: What the composition root provided.
    ///   - payload: What the caller provided.
    init(dependency: Dependency, payload: Payload)
}

extension FactoryModule {
    /// The factory that creates this module.
    public typealias Factory = DependencyKit.Factory<Self>
}

extension FactoryModule where Dependency == Void {
    /// Creates a module that needs no dependency.
    /// - Parameter payload: What the caller provided.
    public init(payload: Payload) {
        self.init(dependency: (), payload: payload)
    }
}

extension FactoryModule where Payload == Void {
    /// Creates a module that needs no payload.
    /// - Parameter dependency: What the composition root provided.
    public init(dependency: Dependency) {
        self.init(dependency: dependency, payload: ())
    }
}

extension FactoryModule where Dependency == Void, Payload == Void {
    /// Creates a module that needs neither a dependency nor a payload.
    public init() {
        self.init(dependency: (), payload: ())
    }
}
