/// The cached instances an override scope owns for one container: its own table of shared, weak and
/// scoped instances, and the identity its per-graph instances are keyed by.
///
/// The rule (Writing Tests → "What an override promises"): inside an override scope, every cached
/// lifetime of every container serves the scope's instances, built there on first use and released
/// with the scope; the container's own instances are never read or written inside. The lifetimes learn
/// it from one helper, `instancesOwnedByScope()`.
@usableFromInline
package final class OwnedInstances: Sendable {
    /// Kept alive, so its identity is not reused while the scope's instances exist.
    let container: any AnyObject & Sendable
    /// The scope's instances of ``container``.
    @usableFromInline
    let table = SharedInstances()

    package init(container: any AnyObject & Sendable) {
        self.container = container
    }
}
