/// A ``Module`` that something else creates — a framework, a storyboard, a cell queue — and a
/// ``Configurator`` sets up afterwards from its dependency and a payload.
///
/// Conforming gives the type a nested `Configurator`:
///
/// ```swift
/// final class UserCell: ConfiguratorModule {
///     struct Dependency: Sendable { let avatars: any AvatarLoading }
///     struct Payload { let user: User }
///
///     func configure(dependency: Dependency, payload: Payload) {
///         avatarLoader = dependency.avatars
///         title = payload.user.name
///     }
/// }
///
/// // In the container:
/// func resolveUserCellConfigurator() -> UserCell.Configurator {
///     .init(dependency: .init(avatars: self.resolveAvatarLoader()))
/// }
///
/// // In the list, for each cell the framework hands over:
/// userCellConfigurator.configure(cell, payload: .init(user: user))
/// ```
///
/// The requirement is not `mutating`: configuring means setting up an existing object, so
/// configurator modules are classes in practice.
public protocol ConfiguratorModule: Module {
    // Restated so that Swift infers them from the requirement below (`init(dependency: Int,
    // payload: Void)` makes `Dependency == Int`); declared only on `Module`, the defaults
    // would win and such a conformance would not compile.
    /// What the composition root provides; `Void` by default.
    associatedtype Dependency = Void
    /// What the caller provides at run time; `Void` by default.
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
