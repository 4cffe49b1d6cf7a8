/// The cached instances an override scope owns for one container: its own table of shared, weak and
/// scoped instances, and the identity its per-graph instances are keyed by.
///
/// The rule (Writing Tests → "What an override promises"): inside an override scope, every cached
/// lifetime of every container serves the scope's instances, built there on first use and released
/// with the scope; the container's own instances are never read or written inside. The lifetimes learn
/// it from one helper, ``DependencyContainer/instancesOwnedByScope()``.
@usableFromInline
package final class OwnedInstances: Sendable {
    /// Kept alive, so its identity is not reused while the scope's instances exist.
    let container: DependencyContainer
    /// The scope's instances of ``container``.
    @usableFromInline
    let table = SharedInstances()

    init(container: DependencyContainer) {
        self.container = container
    }
}

extension DependencyContainer {
    /// The instances the override scope in effect owns for this container, or `nil` when none is in
    /// effect and the container's own instances are served: the one helper every cached lifetime, sync
    /// and async, asks. One relaxed load when no override scope is alive anywhere.
    @usableFromInline
    func instancesOwnedByScope() -> OwnedInstances? {
        guard DiagnosticsWord.mayHaveOverrideSets, let overrides = Interception.overrides else { return nil }
        return overrides.instances(for: self)
    }
}
