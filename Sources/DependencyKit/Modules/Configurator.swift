/// Sets up an existing ``ConfiguratorModule`` from a dependency, provided once, and a payload,
/// provided on each configuration.
///
/// Use it for objects you do not create yourself — reusable cells, objects a framework
/// instantiates — where a ``Factory`` cannot help:
///
/// ```swift
/// // In the container:
/// func resolveGreetingCellConfigurator() -> GreetingCell.Configurator {
///     .init(dependency: .init(greeter: self.resolveGreeter()))
/// }
///
/// // For each cell the framework hands over:
/// greetingCellConfigurator.configure(cell, payload: .init(name: name))
/// ```
///
/// The dependency is lazy exactly like a factory's: evaluated on first use, exactly once, even
/// when many threads configure at the same moment. A configurator is `Sendable` when its
/// module's `Dependency` is; the module and the payload stay on the caller's thread. Customise
/// it with `extension Configurator where Module == GreetingCell { … }`; in tests, use
/// `Configurator.stub` from DependencyKitTesting.
public struct Configurator<Module: ConfiguratorModule> {
    @usableFromInline
    let dependencyCell: OnceCell<Module.Dependency>
    @usableFromInline
    let makeDependency: @Sendable () -> Module.Dependency
    @usableFromInline
    let stubbedConfigure: (@Sendable (Module, Module.Payload) -> Void)?

    /// Creates a configurator that sets modules up with `dependency`.
    /// - Parameter dependency: Evaluated once, on first use, from whichever thread uses it first.
    public init(dependency: @autoclosure @escaping @Sendable () -> Module.Dependency) {
        self.init(makeDependency: dependency, configure: nil)
    }

    /// Creates a configurator that evaluates `makeDependency` lazily and configures modules with
    /// `configure` when given (test stubs), else with the module's own `configure`.
    package init(
        makeDependency: @escaping @Sendable () -> Module.Dependency,
        configure: (@Sendable (Module, Module.Payload) -> Void)?
    ) {
        dependencyCell = OnceCell()
        self.makeDependency = makeDependency
        stubbedConfigure = configure
    }

    /// The dependency every module is configured with, evaluated on first access.
    @inlinable
    public var dependency: Module.Dependency {
        dependencyCell.value(describedBy: { "the dependency of Configurator<\(Module.self)>" }, make: makeDependency)
    }

    /// Sets `module` up with the configurator's dependency and `payload`.
    /// - Parameters:
    ///   - module: The module to configure.
    ///   - payload: What this configuration needs at run time.
    @inlinable
    public func configure(_ module: Module, payload: Module.Payload) {
        // The hook's value is the module itself, so tracing can name what was configured.
        _ = withResolution("Configurator.configure(_:payload:)", of: Module.self, lifetime: .configurator) {
            if let stubbedConfigure {
                stubbedConfigure(module, payload)
            } else {
                module.configure(dependency: dependency, payload: payload)
            }
            return module
        }
    }
}

extension Configurator: Sendable where Module.Dependency: Sendable {}

extension Configurator where Module.Dependency == Void {
    /// Creates a configurator for a module that needs no dependency.
    public init() {
        self.init(dependency: ())
    }
}

extension Configurator where Module.Payload == Void {
    /// Sets `module` up when it needs no payload.
    /// - Parameter module: The module to configure.
    public func configure(_ module: Module) {
        configure(module, payload: ())
    }
}
