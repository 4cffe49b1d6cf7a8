public import DependencyKitAtomics

/// Every resolution the engine performs passes through here.
///
/// This is the single hook for cycle detection and tracing. With both off it is one relaxed
/// load of a process-wide word and a compare against a constant; `body` is then called
/// directly. With either on, the resolution is pushed on the current task's resolution chain
/// (a task-local, so child tasks see their parent's chain and concurrent tasks never mix).
///
/// A cycle found here stops the process with a message naming the whole chain — `body`
/// cannot throw an error it does not declare. Resolutions that can throw use
/// ``withThrowingResolution(_:of:lifetime:container:cycleError:_:)`` instead, which throws.
/// - Parameters:
///   - name: What is being resolved, for messages (usually the resolve method's `#function`).
///   - type: The requested type.
///   - lifetime: How the value is produced.
///   - container: The container serving it, if any.
///   - body: Produces the value.
/// - Returns: What `body` returns.
@inlinable
package func withResolution<T>(
    _ name: String,
    of type: T.Type,
    lifetime: ResolutionLifetime,
    container: AnyObject?,
    implementer: (any AnyObject.Type)? = nil,
    _ body: () throws -> T
) rethrows -> T {
    // Two thread-local increments: in every build, a resolution nested deeper than any real graph
    // is diagnosed as a cycle instead of overflowing the stack (see `RunawayResolution`).
    let depth = dk_resolution_depth_enter()
    defer { dk_resolution_depth_exit() }
    if _slowPath(DiagnosticsWord.isActive || depth > RunawayResolution.depthLimit) {
        return try diagnosedResolution(
            name,
            of: type,
            lifetime: lifetime,
            container: container,
            implementer: implementer,
            depth: depth,
            body
        )
    }
    return try body()
}

/// The hook for resolutions that carry a run-time payload (a `Factory`'s `create`, a
/// `Configurator`'s `configure`): traced like any other, never taken for a cycle.
///
/// Each call has its own payload, so a module that creates modules of its own kind (a tree node
/// creating its children, a folder page creating a section that creates a folder page) is
/// recursion that ends, not a resolution requiring itself.
@inlinable
package func withPayloadResolution<T>(
    _ name: String,
    of type: T.Type,
    lifetime: ResolutionLifetime,
    _ body: () throws -> T
) rethrows -> T {
    if _slowPath(DiagnosticsWord.isActive) {
        return try diagnosedPayloadResolution(name, of: type, lifetime: lifetime, body)
    }
    return try body()
}

/// The asynchronous form of ``withResolution(_:of:lifetime:container:_:)``.
@inlinable
package func withResolution<T>(
    _ name: String,
    of type: T.Type,
    lifetime: ResolutionLifetime,
    container: AnyObject?,
    implementer: (any AnyObject.Type)? = nil,
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> T
) async rethrows -> T {
    if _slowPath(DiagnosticsWord.isActive) {
        return try await diagnosedResolution(
            name,
            of: type,
            lifetime: lifetime,
            container: container,
            implementer: implementer,
            isolation: isolation,
            body
        )
    }
    return try await body()
}

/// The hook for resolutions that already throw, such as the tagged registry's: a cycle is
/// thrown instead of stopping the process.
///
/// ```swift
/// try withThrowingResolution(
///     "resolve(\(T.self), tag: \(tag))", of: T.self, lifetime: .registry, container: self,
///     cycleError: RegistryError.cycle
/// ) { () throws(RegistryError) -> T in … }
/// ```
/// - Parameters:
///   - name: What is being resolved, for messages and for telling resolutions apart; only
///     evaluated when diagnostics are on, so it may describe a tag.
///   - type: The requested type.
///   - lifetime: How the value is produced.
///   - container: The container or registry serving it, if any.
///   - cycleError: Turns a detected cycle into the error this resolution throws.
///   - body: Produces the value.
/// - Returns: What `body` returns.
/// - Throws: `cycleError(_:)` of the ``DependencyCycleError`` when cycle checking is on and this
///   resolution is already in progress in the current task; otherwise whatever `body` throws.
@inlinable
package func withThrowingResolution<T, Failure: Error>(
    _ name: @autoclosure () -> String,
    of type: T.Type,
    lifetime: ResolutionLifetime,
    container: AnyObject?,
    cycleError: (DependencyCycleError) -> Failure,
    _ body: () throws(Failure) -> T
) throws(Failure) -> T {
    if _slowPath(DiagnosticsWord.isActive) {
        return try diagnosedThrowingResolution(
            name(),
            of: type,
            lifetime: lifetime,
            container: container,
            cycleError: cycleError,
            body
        )
    }
    return try body()
}

/// The asynchronous form of ``withThrowingResolution(_:of:lifetime:container:cycleError:_:)``.
@inlinable
package func withThrowingResolution<T, Failure: Error>(
    _ name: @autoclosure () -> String,
    of type: T.Type,
    lifetime: ResolutionLifetime,
    container: AnyObject?,
    isolation: isolated (any Actor)? = #isolation,
    cycleError: (DependencyCycleError) -> Failure,
    _ body: () async throws(Failure) -> T
) async throws(Failure) -> T {
    if _slowPath(DiagnosticsWord.isActive) {
        return try await diagnosedThrowingResolution(
            name(),
            of: type,
            lifetime: lifetime,
            container: container,
            isolation: isolation,
            cycleError: cycleError,
            body
        )
    }
    return try await body()
}

// MARK: - The slow path

@usableFromInline
func diagnosedResolution<T>(
    _ name: String,
    of type: T.Type,
    lifetime: ResolutionLifetime,
    container: AnyObject?,
    implementer: (any AnyObject.Type)?,
    depth: Int,
    _ body: () throws -> T
) rethrows -> T {
    if depth > RunawayResolution.depthLimit {
        RunawayResolution.record(name, of: type, lifetime: lifetime, container: container, implementer: implementer)
    }
    guard DiagnosticsWord.isActive else { return try body() }
    let frame = ResolutionFrame.enterOrTrap(
        name, of: type, lifetime: lifetime, container: container, implementer: implementer)
    if DiagnosticsWord.hasTestContexts(DiagnosticsWord.load()) {
        TestGuard.inspect(
            name,
            of: type,
            lifetime: lifetime,
            container: container,
            implementer: implementer,
            chain: frame?.liveChain ?? []
        )
    }
    guard let frame else { return try body() }
    return try frame.run(body)
}

@usableFromInline
func diagnosedPayloadResolution<T>(
    _ name: String,
    of type: T.Type,
    lifetime: ResolutionLifetime,
    _ body: () throws -> T
) rethrows -> T {
    guard let frame = ResolutionFrame.enterOrTrap(name, of: type, lifetime: lifetime, container: nil) else {
        return try body()
    }
    return try frame.run(body)
}

@usableFromInline
func diagnosedResolution<T>(
    _ name: String,
    of type: T.Type,
    lifetime: ResolutionLifetime,
    container: AnyObject?,
    implementer: (any AnyObject.Type)?,
    isolation: isolated (any Actor)?,
    _ body: () async throws -> T
) async rethrows -> T {
    let frame = ResolutionFrame.enterOrTrap(
        name, of: type, lifetime: lifetime, container: container, implementer: implementer)
    if DiagnosticsWord.hasTestContexts(DiagnosticsWord.load()) {
        TestGuard.inspect(
            name,
            of: type,
            lifetime: lifetime,
            container: container,
            implementer: implementer,
            chain: frame?.liveChain ?? []
        )
    }
    guard let frame else { return try await body() }
    return try await frame.run(isolation: isolation, body)
}

@usableFromInline
func diagnosedThrowingResolution<T, Failure: Error>(
    _ name: String,
    of type: T.Type,
    lifetime: ResolutionLifetime,
    container: AnyObject?,
    cycleError: (DependencyCycleError) -> Failure,
    _ body: () throws(Failure) -> T
) throws(Failure) -> T {
    let frame: ResolutionFrame?
    do {
        frame = try ResolutionFrame.enter(name, of: type, lifetime: lifetime, container: container)
    } catch {
        throw cycleError(error)
    }
    guard let frame else { return try body() }
    return try frame.run(body)
}

@usableFromInline
func diagnosedThrowingResolution<T, Failure: Error>(
    _ name: String,
    of type: T.Type,
    lifetime: ResolutionLifetime,
    container: AnyObject?,
    isolation: isolated (any Actor)?,
    cycleError: (DependencyCycleError) -> Failure,
    _ body: () async throws(Failure) -> T
) async throws(Failure) -> T {
    let frame: ResolutionFrame?
    do {
        frame = try ResolutionFrame.enter(name, of: type, lifetime: lifetime, container: container)
    } catch {
        throw cycleError(error)
    }
    guard let frame else { return try await body() }
    return try await frame.run(isolation: isolation, body)
}
