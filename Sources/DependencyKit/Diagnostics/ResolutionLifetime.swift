/// How a resolution produced its value.
public enum ResolutionLifetime: String, Sendable, Hashable, CaseIterable {
    /// A new value on every resolve (the default).
    case fresh
    /// One instance per container, held strongly.
    case shared
    /// One instance per container while someone else holds it.
    case weakShared
    /// Made by a `Factory` from a dependency and a payload.
    case factory
    /// Configured by a `Configurator` from a dependency and a payload.
    case configurator
    /// Served by a tagged registry.
    case registry
}
