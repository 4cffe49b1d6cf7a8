/// A snapshot of the scoped containers in effect, to re-enter from escaping work.
///
/// Structured child tasks and `Task {}` inherit scopes automatically. Work that escapes the
/// task tree does not: `Task.detached`, a closure handed to a `DispatchQueue`, a callback
/// stored for later. Those see the **global** container unless they re-enter a captured
/// context:
///
/// ```swift
/// let context = DependencyContext.capture()
/// DispatchQueue.global().async {
///     context.run {
///         let worker = DependencyInjector.dependencies.resolveUsersWorker()  // the scoped one
///     }
/// }
/// ```
///
/// A context keeps its scoped containers alive until it is released.
public struct DependencyContext: Sendable {
    private let frame: ScopeFrame?

    private init(frame: ScopeFrame?) { self.frame = frame }

    /// Captures every scoped container in effect for the current task, for every injector.
    /// - Returns: A context to pass to escaping work.
    public static func capture() -> DependencyContext {
        DependencyContext(frame: ScopeFrame.current)
    }

    /// Whether any scope was in effect when the context was captured.
    public var isScoped: Bool { frame != nil }

    /// Runs `operation` with the captured scopes in effect.
    /// - Parameter operation: The code to run.
    /// - Returns: What `operation` returns.
    public func run<R>(_ operation: () throws -> R) rethrows -> R {
        try ScopeFrame.bind(frame, operation: operation)
    }

    /// Runs the asynchronous `operation` with the captured scopes in effect.
    /// - Parameters:
    ///   - isolation: The caller's isolation, inherited by `operation`.
    ///   - operation: The code to run.
    /// - Returns: What `operation` returns.
    public func run<R>(
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws -> R
    ) async rethrows -> R {
        try await ScopeFrame.bind(frame, isolation: isolation, operation: operation)
    }
}
