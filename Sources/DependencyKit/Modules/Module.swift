/// A type built from a dependency resolved in the composition root and a payload known only at
/// run time.
///
/// The model comes from Pure: a detail screen needs the networking and storyboard the
/// composition root owns (its *dependency*) and the item the user tapped (its *payload*).
/// Declare both as nested types; either defaults to `Void` when the module needs nothing of
/// that kind.
///
/// ```swift
/// final class DetailViewModel: FactoryModule {
///     struct Dependency: Sendable { let usersWorker: any UsersWorkerType }
///     struct Payload { let userID: User.ID }
///
///     init(dependency: Dependency, payload: Payload) { … }
/// }
/// ```
///
/// A module is made by a ``Factory`` (see ``FactoryModule``) or configured in place by a
/// ``Configurator`` (see ``ConfiguratorModule``).
public protocol Module {
    /// What the composition root provides: resolved once, shared by every module made.
    ///
    /// Make it `Sendable` so that the ``Factory`` or ``Configurator`` holding it is `Sendable`
    /// too and can be stored in a container and used from any thread.
    associatedtype Dependency = Void

    /// What the caller provides at run time, on each creation or configuration.
    associatedtype Payload = Void
}
