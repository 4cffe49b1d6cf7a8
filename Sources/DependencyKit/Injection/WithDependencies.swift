/// Runs `operation` with `container` in effect for the current task and its child tasks.
///
/// Every injector whose container type `container` is serves it inside `operation`; the global
/// container is untouched, so other tasks — including tests running in parallel — keep seeing their
/// own. Scopes nest; the innermost wins. Unstructured tasks (`Task {}`) started inside inherit the
/// scope; `Task.detached` and closures handed to other queues do not — capture a
/// ``DependencyContainer/Context`` for those.
///
/// ```swift
/// withDependencies(EveningDependency()) {
///     greetingInjector.dependencies.resolveGreeter()  // from EveningDependency
/// }
/// withDependencies(CoreGreetingDependency(), .override({ $0.resolveClock() }, with: FixedClock(fixedHour: 23))) {
///     greetingInjector.dependencies.resolveGreeter().greeting(for: "Ada")  // "Good evening, Ada!"
/// }
/// ```
/// - Parameters:
///   - container: The container to serve inside `operation`.
///   - operation: The code to run.
/// - Returns: What `operation` returns.
public func withDependencies<C: DependencyContainer, R>(
    _ container: C,
    operation: () throws -> R
) rethrows -> R {
    try ScopeFrame.bind(scopeFrame(binding: container), operation: operation)
}

/// Runs `operation` with `container` in effect, answering the resolves `overrides` name.
///
/// See ``withDependencies(_:operation:)-(_,()->R)``; an override's closure receives `container` as
/// its own type, so an app container's own resolves are in reach.
/// - Parameters:
///   - container: The container to serve inside `operation`.
///   - override: Replaces one of the container's resolves; see ``DependencyContainer/Override``.
///   - more: More overrides, each recorded with the ones before it in effect.
///   - operation: The code to run.
/// - Returns: What `operation` returns.
public func withDependencies<C: DependencyContainer, R>(
    _ container: C,
    _ override: DependencyContainer.Override<C>,
    _ more: DependencyContainer.Override<C>...,
    operation: () throws -> R
) rethrows -> R {
    try withDependencies(container, overriding: [override] + more, operation: operation)
}

/// Runs `operation` with `container` in effect, answering the resolves `overrides` name: overrides
/// declared once for a container protocol (`Override<any GreetingDependency>`).
///
/// See ``withDependencies(_:_:_:operation:)-(_,DependencyContainer.Override<C>,_,_)``.
/// - Parameters:
///   - container: The container to serve inside `operation`; a `Declared`.
///   - override: Replaces one of the container's resolves; see ``DependencyContainer/Override``.
///   - more: More overrides, each recorded with the ones before it in effect.
///   - operation: The code to run.
/// - Returns: What `operation` returns.
public func withDependencies<C: DependencyContainer, Declared, R>(
    _ container: C,
    _ override: DependencyContainer.Override<Declared>,
    _ more: DependencyContainer.Override<Declared>...,
    operation: () throws -> R
) rethrows -> R {
    try withDependencies(
        container, overriding: ([override] + more).map(DependencyContainer.Override<C>.init), operation: operation)
}

/// Runs the asynchronous `operation` with `container` in effect for the current task and its child
/// tasks.
///
/// See ``withDependencies(_:operation:)-(_,()->R)`` for the rules; this overload awaits.
/// - Parameters:
///   - container: The container to serve inside `operation`.
///   - isolation: The caller's isolation, inherited by `operation`.
///   - operation: The code to run.
/// - Returns: What `operation` returns.
@inlinable
@inline(__always)
public func withDependencies<C: DependencyContainer, R>(
    _ container: C,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> R
) async rethrows -> R {
    // Only the frame depends on the container, and it is made by a synchronous call: a container
    // held as an existential (`any AppDependency`, as middleware usually holds it) then costs one
    // unspecialised synchronous call, not an unspecialised asynchronous one.
    try await ScopeFrame.bind(scopeFrame(binding: container), isolation: isolation, operation: operation)
}

/// Runs the asynchronous `operation` with `container` in effect, answering the resolves `overrides`
/// name.
///
/// See ``withDependencies(_:_:_:operation:)-(_,DependencyContainer.Override<C>,_,_)``.
/// - Parameters:
///   - container: The container to serve inside `operation`.
///   - override: Replaces one of the container's resolves; see ``DependencyContainer/Override``.
///   - more: More overrides, each recorded with the ones before it in effect.
///   - isolation: The caller's isolation, inherited by `operation`.
///   - operation: The code to run.
/// - Returns: What `operation` returns.
@inlinable
public func withDependencies<C: DependencyContainer, R>(
    _ container: C,
    _ override: DependencyContainer.Override<C>,
    _ more: DependencyContainer.Override<C>...,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> R
) async rethrows -> R {
    // Bound here, in the caller, as `withOverrides` binds its scope: specialised for the container, with no
    // asynchronous frame of DependencyKit's between the caller and `operation` (a request's middleware).
    let scope = OverrideScopeBinding([override] + more, on: container, pinned: false)
    return try await ScopeFrame.bind(scope.frame, isolation: isolation) {
        try await Interception.currentLocal.withValue(scope.interception, operation: operation, isolation: isolation)
    }
}

/// Runs the asynchronous `operation` with `container` in effect, answering the resolves `overrides`
/// name: overrides declared once for a container protocol.
///
/// See ``withDependencies(_:_:_:operation:)-(_,DependencyContainer.Override<Declared>,_,_)``.
/// - Parameters:
///   - container: The container to serve inside `operation`; a `Declared`.
///   - override: Replaces one of the container's resolves; see ``DependencyContainer/Override``.
///   - more: More overrides, each recorded with the ones before it in effect.
///   - isolation: The caller's isolation, inherited by `operation`.
///   - operation: The code to run.
/// - Returns: What `operation` returns.
public func withDependencies<C: DependencyContainer, Declared, R>(
    _ container: C,
    _ override: DependencyContainer.Override<Declared>,
    _ more: DependencyContainer.Override<Declared>...,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> R
) async rethrows -> R {
    try await withDependencies(
        container, overriding: ([override] + more).map(DependencyContainer.Override<C>.init), isolation: isolation,
        operation: operation)
}

/// A frame that puts `container` in effect inside the scopes already current.
@usableFromInline
func scopeFrame(binding container: DependencyContainer) -> ScopeFrame {
    ScopeFrame(owner: container, parent: ScopeFrame.current)
}

extension DependencyContainer {
    /// A snapshot of the scoped containers in effect, to re-enter from escaping work.
    ///
    /// Structured child tasks and `Task {}` inherit scopes automatically. Work that escapes the
    /// task tree does not: `Task.detached`, a closure handed to a `DispatchQueue`, a callback
    /// stored for later. Those see the **global** container unless they re-enter a captured
    /// context:
    ///
    /// ```swift
    /// let context = DependencyContainer.Context.capture()
    /// DispatchQueue.global().async {
    ///     context.run {
    ///         let greeter = greetingInjector.dependencies.resolveGreeter()  // the scoped one
    ///     }
    /// }
    /// ```
    ///
    /// A context keeps its scoped containers alive until it is released.
    public struct Context: Sendable {
        private let frame: ScopeFrame?
        /// The overrides in effect (``DependencyContainer/Override``), re-entered with the containers.
        private let overrides: (any OverrideScope)?

        /// Whether the context reads the global container on purpose (``global``).
        private let readsGlobalOnPurpose: Bool

        /// No scope: code run in it reads the global container, on purpose.
        ///
        /// Work that leaves a test's task (a detached task, a queue, a thread) sees the global
        /// container, and DependencyKitTesting's guard reports it as work that escaped its test. Work
        /// that means to read the global container — a test of that behaviour, a process-wide
        /// service — says so by running in this context, and the guard stays quiet about the read, in
        /// strict mode too. A live leaf (`live {}`) the global container serves there with production
        /// code is still reported, once: the context marks intent, it does not make production code quiet.
        ///
        /// ```swift
        /// Task.detached {
        ///     DependencyContainer.Context.global.run {
        ///         greetingInjector.dependencies.resolveGreeter()  // the global container, on purpose
        ///     }
        /// }
        /// ```
        public static var global: DependencyContainer.Context {
            DependencyContainer.Context(frame: nil, overrides: nil, readsGlobalOnPurpose: true)
        }

        /// Captures every scoped container in effect for the current task, for every injector, and the
        /// overrides in effect.
        /// - Returns: A context to pass to escaping work.
        public static func capture() -> DependencyContainer.Context {
            Self(frame: .current, overrides: Interception.overrides as? any OverrideScope, readsGlobalOnPurpose: false)
        }

        /// Whether any scope was in effect when the context was captured.
        public var isScoped: Bool { frame != nil }

        /// Runs `operation` with the captured scopes in effect.
        /// - Parameter operation: The code to run.
        /// - Returns: What `operation` returns.
        public func run<R>(_ operation: () throws -> R) rethrows -> R {
            guard changesInterception else { return try ScopeFrame.bind(frame, operation: operation) }
            return try Interception.updating(enter) { try ScopeFrame.bind(frame, operation: operation) }
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
            guard changesInterception else {
                return try await ScopeFrame.bind(frame, isolation: isolation, operation: operation)
            }
            return try await Interception.updating(enter, isolation: isolation) {
                try await ScopeFrame.bind(frame, isolation: isolation, operation: operation)
            }
        }

        /// Whether running in the context changes the task's interceptors: it reads the global on purpose,
        /// has overrides, or has none while some are alive (which the running task may have).
        private var changesInterception: Bool {
            readsGlobalOnPurpose || overrides != nil || DiagnosticsWord.hasOverrides(DiagnosticsWord.load())
        }

        /// Puts the context's overrides in effect, and its reading of the global on purpose.
        private func enter(_ interception: inout Interception) {
            interception.overrides = overrides
            if readsGlobalOnPurpose { interception.readsGlobalOnPurpose = true }
        }
    }
}
