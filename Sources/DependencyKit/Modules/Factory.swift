/// Creates a ``FactoryModule`` from a dependency, provided once, and a payload, provided on
/// each creation.
///
/// The composition root makes the factory; the code that knows the payload creates modules:
///
/// ```swift
/// // In the container (the autoclosure escapes, hence `self.`):
/// func resolveCardFactory() -> GreetingCard.Factory {
///     .init(dependency: .init(greeter: self.resolveGreeter()))
/// }
///
/// // Where the payload is known:
/// let card = cardFactory.create(payload: .init(name: "Ada"))
/// ```
///
/// ## The dependency is lazy
///
/// `dependency` is an autoclosure evaluated on first use — the first ``create(payload:)`` or
/// the first read of ``dependency`` — exactly once, even when many threads create at the same
/// moment; every later module gets the same value. Making a factory is therefore free, and a
/// container can hand out factories for screens the user may never open. The factory keeps the
/// container it captured alive and resolves from it, even if another container is installed
/// before the first use.
///
/// ## Customising
///
/// Add creation methods for one module type with a constrained extension — a different
/// construction path, an extra argument, an adapter for a router:
///
/// ```swift
/// extension Factory where Module == GreetingCard {
///     func create(for name: String) -> GreetingCard {
///         create(payload: .init(name: name))
///     }
/// }
/// ```
///
/// ## Sendable
///
/// A factory is `Sendable` when its module's `Dependency` is, so it can be stored in a
/// container and used from any thread. Payloads and modules never cross threads through the
/// factory: `create` builds the module on the caller's thread and hands it straight back, so
/// neither needs to be `Sendable`.
///
/// A main-actor module — a view controller — conforms with an isolated conformance,
/// `extension GreetingViewController: @MainActor FactoryModule`; the compiler then allows its
/// factory to create only from the main actor.
///
/// In tests, `Factory.stub` from DependencyKitTesting makes a factory that returns a given
/// module instead.
public struct Factory<Module: FactoryModule> {
    @usableFromInline
    let dependencyCell: OnceCell<Module.Dependency>
    @usableFromInline
    let makeDependency: @Sendable () -> Module.Dependency
    @usableFromInline
    let stubbedCreate: (@Sendable (Module.Payload) -> Module)?

    /// Creates a factory whose modules receive `dependency`.
    /// - Parameter dependency: Evaluated once, on first use, from whichever thread uses it first.
    public init(dependency: @autoclosure @escaping @Sendable () -> Module.Dependency) {
        self.init(makeDependency: dependency, create: nil)
    }

    /// Creates a factory that evaluates `makeDependency` lazily and creates modules with
    /// `create` when given (test stubs), else with the module's initialiser.
    package init(
        makeDependency: @escaping @Sendable () -> Module.Dependency,
        create: (@Sendable (Module.Payload) -> Module)?
    ) {
        dependencyCell = OnceCell()
        self.makeDependency = makeDependency
        stubbedCreate = create
    }

    /// The dependency every module is created with, evaluated on first access.
    @inlinable
    public var dependency: Module.Dependency {
        dependencyCell.value(describedBy: { "the dependency of Factory<\(Module.self)>" }, make: makeDependency)
    }

    /// Creates a module with the factory's dependency and `payload`.
    /// - Parameter payload: What this module needs at run time.
    /// - Returns: A new module.
    @inlinable
    public func create(payload: Module.Payload) -> Module {
        withResolution("Factory.create(payload:)", of: Module.self, lifetime: .factory) {
            if let stubbedCreate { return stubbedCreate(payload) }
            return Module(dependency: dependency, payload: payload)
        }
    }
}

extension Factory: Sendable where Module.Dependency: Sendable {}

extension Factory where Module.Dependency == Void {
    /// Creates a factory for a module that needs no dependency.
    ///
    /// ```swift
    /// let factory = GreetingModel.Factory()
    /// ```
    public init() {
        self.init(dependency: ())
    }
}

extension Factory where Module.Payload == Void {
    /// Creates a module that needs no payload.
    /// - Returns: A new module.
    public func create() -> Module {
        create(payload: ())
    }
}
