extension Diagnostics {
    /// How a resolution produced its value.
    public enum Lifetime: String, Sendable, Hashable, CaseIterable {
        /// A new value on every resolve (the default).
        case fresh
        /// A new value on every resolve that reaches the outside world — the network, the disk, the
        /// clock, randomness (`live {}`). Inside a test guarded by DependencyKitTesting, serving one
        /// from production code records an issue.
        case live
        /// One instance per container, held strongly.
        case shared
        /// One instance per container while someone else holds it.
        case weakShared
        /// One instance per generation of a named scope, until the scope is reset (`scoped(_:) {}`).
        case scoped
        /// One instance per top-level resolution, shared by everything it resolves (`perGraph {}`).
        case perGraph
        /// Made by a `Factory` from a dependency and a payload.
        case factory
        /// Configured by a `Configurator` from a dependency and a payload.
        case configurator
        /// Served by a tagged registry.
        case registry

        /// Whether resolutions with this lifetime carry a run-time payload, so that two of them are
        /// never the same resolution (a factory creating a module of its own kind is recursion).
        @inlinable
        var carriesPayload: Bool {
            // A `switch`, not `==`: `==` on a raw-value enum can compare the raw strings, which
            // the hot path's constant folding does not see through (5 % more instructions per graph).
            switch self {
            case .factory, .configurator: true
            default: false
            }
        }
    }
}
