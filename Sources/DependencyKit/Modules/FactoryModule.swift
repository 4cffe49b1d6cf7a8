/// A ``Module`` that a ``Factory`` creates from its dependency and a payload.
///
/// Conforming gives the type a nested `Factory`, so the composition root can write
/// `DetailViewModel.Factory(dependency: …)` and the caller `factory.create(payload: …)`:
///
/// ```swift
/// final class DetailViewModel: FactoryModule {
///     struct Dependency: Sendable { let usersWorker: any UsersWorkerType }
///     struct Payload { let userID: User.ID }
///
///     init(dependency: Dependency, payload: Payload) { … }
/// }
///
/// // In the container:
/// func resolveDetailFactory() -> DetailViewModel.Factory {
///     .init(dependency: .init(usersWorker: self.resolveUsersWorker()))
/// }
///
/// // In the list screen, when a row is tapped:
/// let model = detailFactory.create(payload: .init(userID: user.id))
/// ```
public protocol FactoryModule: Module {
    // Restated so that Swift infers them from the requirement below (`init(dependency: Int,
    // payload: Void)` makes `Dependency == Int`); declared only on `Module`, the defaults
    // would win and such a conformance would not compile.
    /// What the composition root provides; `Void` by default.
    associatedtype Dependency = Void
    /// What the caller provides at run time; `Void` by default.
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
