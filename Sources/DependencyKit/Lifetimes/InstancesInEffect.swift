/// The one place the cached lifetimes meet the override rule (Writing Tests → "What an override
/// promises"): which table of instances a resolution uses.
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
