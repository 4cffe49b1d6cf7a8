/// The one place the cached lifetimes meet the override rule (Writing Tests → "What an override
/// promises"): which table of instances a resolution uses.
extension DependencyContainer {
    /// The instances the override scope in effect owns for this container, or `nil` when none is in
    /// effect and the container's own instances are served: the one helper every cached lifetime, sync
    /// and async, asks — except `appShared {}`, whose instances are the container's in every scope.
    /// One relaxed load when no override scope is alive anywhere.
    @usableFromInline
    func instancesOwnedByScope() -> OwnedInstances? {
        guard DiagnosticsWord.mayHaveOverrideSets, let overrides = Interception.overrides else { return nil }
        return overrides.instances(for: self)
    }

    /// Runs an `appShared {}` builder with every override masked — the task's, a serial XCTest's
    /// process-wide ones — so the instance it builds is the container's and cannot capture a scope's
    /// value. The test guard and a trace still see its resolutions.
    @usableFromInline
    func buildingWithOverridesMasked<T>(_ make: () throws -> T) rethrows -> T {
        guard DiagnosticsWord.mayHaveOverrideSets else { return try make() }
        return try Interception.updating({ $0.overrides = OverridesMasked.instance }, operation: make)
    }

    /// The asynchronous form of ``buildingWithOverridesMasked(_:)``.
    @usableFromInline
    func buildingWithOverridesMasked<T, Failure: Error>(
        isolation: isolated (any Actor)?, _ make: () async throws(Failure) -> T
    ) async throws(Failure) -> T {
        guard DiagnosticsWord.mayHaveOverrideSets else { return try await make() }
        return try await Interception.outcome(overrides: OverridesMasked.instance, isolation: isolation, make).get()
    }
}

/// What the override slot holds while an `appShared {}` builder runs: no override answers and no scope
/// owns an instance, and the process-wide overrides are not looked up either (the slot is not empty).
final class OverridesMasked: ResolutionInterceptor {
    static let instance = OverridesMasked()
}
