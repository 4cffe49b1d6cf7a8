/// A type that something else creates — a framework, a storyboard, a cell queue — and a
/// ``Configurator`` sets up afterwards from a dependency resolved in the composition root and a
/// payload known only at run time.
///
/// Like a ``FactoryModule``, it declares its *dependency* and its *payload* as nested types;
/// either defaults to `Void` when the module needs nothing of that kind. Conforming gives the
/// type a nested `Configurator`:
///
/// ```swift
/// final class GreetingCell: ConfiguratorModule {
///     struct Dependency: Sendable { let greeter: any Greeter }
///     struct Payload { let name: String }
///
///     func configure(dependency: Dependency, payload: Payload) {
///         title = dependency.greeter.greeting(for: payload.name)
///     }
/// }
///
/// // In the container:
/// func resolveGreetingCellConfigurator() -> GreetingCell.Configurator {
///     .init(dependency: .init(greeter: self.resolveGreeter()))
/// }
///
/// // For each cell the framework hands over:
/// greetingCellConfigurator.configure(cell, payload: .init(name: name))
/// ```
///
/// The requirement is not `mutating`: configuring means setting up an existing object, so
/// configurator modules are classes in practice.
public protocol ConfiguratorModule {
    /// What the composition root provides: resolved once, shared by every module configured;
    /// `Void` by default.
    ///
    /// Make it `Sendable` so that the ``Configurator`` holding it is `Sendable` too and can be
    /// stored in a container and used from any thread.
    associatedtype Dependency = Void

    /// What the caller provides on each configuration; `Void` by default.
    associatedtype Payload = Void

    /// Sets the module up.
    /// - Parameters:
    ///   - dependency: What the composition root provided.
    ///   - payload: What the caller provided.
    func configure(dependency: Dependency, payload: Payload)
}

extension ConfiguratorModule {
    /// The configurator that sets up this module.
    public typealias Configurator = DependencyKit.Configurator<Self>
}

extension ConfiguratorModule where Dependency == Void {
    /// Sets up a module that needs no dependency.
    /// - Parameter payload: What the caller provided.
    public func configure(payload: Payload) {
        configure(dependency: (), payload: payload)
    }
}

extension ConfiguratorModule where Payload == Void {
    /// Sets up a module that needs no payload.
    /// - Parameter dependency: What the composition root provided.
    public func configure(dependency: Dependency) {
        configure(dependency: dependency, payload: ())
    }
}

extension ConfiguratorModule where Dependency == Void, Payload == Void {
    /// Sets up a module that needs neither a dependency nor a payload.
    public func configure() {
        configure(dependency: (), payload: ())
    }
}
