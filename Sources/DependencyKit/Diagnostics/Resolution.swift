/// Every resolution the engine performs passes through here.
///
/// This is the single hook for cycle detection and tracing. With both off it is one relaxed
/// load of a process-wide word and a compare against a constant; `body` is then called
/// directly. With either on, the resolution is pushed on the current task's resolution chain
/// (a task-local, so child tasks see their parent's chain and concurrent tasks never mix).
///
/// A cycle found here stops the process with a message naming the whole chain — `body`
/// cannot throw an error it does not declare. Resolutions that can throw use
/// ``withThrowingResolution(_:of:lifetime:container:_:)`` instead, which throws
/// ``DependencyCycleError``.
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
    _ body: () throws -> T
) rethrows -> T {
    if _slowPath(DiagnosticsWord.isActive) {
        return try diagnosedResolution(name, of: type, lifetime: lifetime, container: container, body)
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
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> T
) async rethrows -> T {
    if _slowPath(DiagnosticsWord.isActive) {
        return try await diagnosedResolution(
            name,
            of: type,
            lifetime: lifetime,
            container: container,
            isolation: isolation,
            body
        )
    }
    return try await body()
}

/// The hook for resolutions that already throw, such as the tagged registry's: a cycle is
/// thrown as ``DependencyCycleError`` instead of stopping the process.
/// - Parameters:
///   - name: What is being resolved, for messages.
///   - type: The requested type.
///   - lifetime: How the value is produced.
///   - container: The container or registry serving it, if any.
///   - body: Produces the value.
/// - Returns: What `body` returns.
/// - Throws: ``DependencyCycleError`` when cycle checking is on and this resolution is already
///   in progress in the current task; otherwise whatever `body` throws.
@inlinable
package func withThrowingResolution<T>(
    _ name: String,
    of type: T.Type,
    lifetime: ResolutionLifetime,
    container: AnyObject?,
    _ body: () throws -> T
) throws -> T {
    if _slowPath(DiagnosticsWord.isActive) {
        return try diagnosedThrowingResolution(name, of: type, lifetime: lifetime, container: container, body)
    }
    return try body()
}

/// The asynchronous form of ``withThrowingResolution(_:of:lifetime:container:_:)``.
@inlinable
package func withThrowingResolution<T>(
    _ name: String,
    of type: T.Type,
    lifetime: ResolutionLifetime,
    container: AnyObject?,
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> T
) async throws -> T {
    if _slowPath(DiagnosticsWord.isActive) {
        return try await diagnosedThrowingResolution(
            name,
            of: type,
            lifetime: lifetime,
            container: container,
            isolation: isolation,
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
    _ body: () throws -> T
) rethrows -> T {
    let frame = ResolutionFrame.enterOrTrap(name, of: type, lifetime: lifetime, container: container)
    return try frame.run(body)
}

@usableFromInline
func diagnosedResolution<T>(
    _ name: String,
    of type: T.Type,
    lifetime: ResolutionLifetime,
    container: AnyObject?,
    isolation: isolated (any Actor)?,
    _ body: () async throws -> T
) async rethrows -> T {
    let frame = ResolutionFrame.enterOrTrap(name, of: type, lifetime: lifetime, container: container)
    return try await frame.run(isolation: isolation, body)
}

@usableFromInline
func diagnosedThrowingResolution<T>(
    _ name: String,
    of type: T.Type,
    lifetime: ResolutionLifetime,
    container: AnyObject?,
    _ body: () throws -> T
) throws -> T {
    let frame = try ResolutionFrame.enter(name, of: type, lifetime: lifetime, container: container)
    return try frame.run(body)
}

@usableFromInline
func diagnosedThrowingResolution<T>(
    _ name: String,
    of type: T.Type,
    lifetime: ResolutionLifetime,
    container: AnyObject?,
    isolation: isolated (any Actor)?,
    _ body: () async throws -> T
) async throws -> T {
    let frame = try ResolutionFrame.enter(name, of: type, lifetime: lifetime, container: container)
    return try await frame.run(isolation: isolation, body)
}
