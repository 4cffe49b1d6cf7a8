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

/// Every resolution the engine performs passes through here.
///
/// This is the single hook for cycle detection and tracing; with both off it must stay a
/// pass-through that costs one relaxed load at most.
/// - Parameters:
///   - name: What is being resolved, for messages (usually the resolve method's `#function`).
///   - type: The requested type.
///   - lifetime: How the value is produced.
///   - container: The container serving it, if any.
///   - body: Produces the value.
@inlinable
package func withResolution<T>(
    _ name: String,
    of type: T.Type,
    lifetime: ResolutionLifetime,
    container: AnyObject?,
    _ body: () throws -> T
) rethrows -> T {
    try body()
}

/// The asynchronous form of ``withResolution(_:of:lifetime:container:_:)``.
@inlinable
package func withResolution<T>(
    _ name: String,
    of type: T.Type,
    lifetime: ResolutionLifetime,
    container: AnyObject?,
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> T
) async rethrows -> T {
    try await body()
}
