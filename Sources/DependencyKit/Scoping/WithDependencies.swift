/// Runs `operation` with `container` in effect for the current task and its child tasks.
///
/// The global container is untouched, so other tasks — including tests running in parallel —
/// keep seeing their own. Scopes nest; the innermost wins. Unstructured tasks (`Task {}`)
/// started inside inherit the scope; `Task.detached` and closures handed to other queues do
/// not — capture a ``DependencyContext`` for those.
///
/// ```swift
/// withDependencies(ScopedDependency()) {
///     let worker = DependencyInjector.dependencies.resolveUsersWorker()  // from ScopedDependency
/// }
/// ```
/// - Parameters:
///   - container: The container to serve inside `operation`.
///   - operation: The code to run.
/// - Returns: What `operation` returns.
public func withDependencies<C: InjectableContainer, R>(
    _ container: C,
    operation: () throws -> R
) rethrows -> R {
    let storage = C.Injector.storage
    let frame = storage.frame(binding: container.asInjectorContainer, parent: ScopeFrame.current)
    return try ScopeFrame.bind(frame, operation: operation)
}

/// Runs the asynchronous `operation` with `container` in effect for the current task and its
/// child tasks.
///
/// See ``withDependencies(_:operation:)-(_,()->R)`` for the rules; this overload awaits.
/// - Parameters:
///   - container: The container to serve inside `operation`.
///   - isolation: The caller's isolation, inherited by `operation`.
///   - operation: The code to run.
/// - Returns: What `operation` returns.
public func withDependencies<C: InjectableContainer, R>(
    _ container: C,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> R
) async rethrows -> R {
    let storage = C.Injector.storage
    let frame = storage.frame(binding: container.asInjectorContainer, parent: ScopeFrame.current)
    return try await ScopeFrame.bind(frame, isolation: isolation, operation: operation)
}
