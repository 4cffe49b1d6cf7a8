extension DependencyInjecting {
    /// The container in effect, as the richer container protocol your app declares on top of a
    /// library's.
    ///
    /// An app adds its own resolves by refining the library's protocol and subclassing its
    /// container; this accessor gives app code a typed container without a cast at each call
    /// site. Wrap it once in the app's own `HasDependencies`-style protocol:
    ///
    /// ```swift
    /// protocol AppDependencies: Dependency { func resolveGreeter() -> Greeter }
    /// final class AppDependency: CoreDependency, AppDependencies, @unchecked Sendable { ... }
    ///
    /// protocol HasAppDependencies {}
    /// extension HasAppDependencies {
    ///     var dependencies: any AppDependencies {
    ///         DependencyInjector.dependencies(as: (any AppDependencies).self)
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
    public static func dependencies<Refined>(as type: Refined.Type) -> Refined {
        let container = storage.current
        guard let refined = container as? Refined else {
            fatalError(
                "The container in effect is a \(Swift.type(of: container as Any)), which is not a \(Refined.self). "
                    + "Install a container that conforms to \(Refined.self) at launch, and derive test containers from it."
            )
        }
        return refined
    }
}
