/// What plugs into resolution from the layers above it: an override scope, a guarded test, a trace.
///
/// The resolution layer declares this one protocol and one task-local value (``Interception``) and asks
/// them only on the diagnosed path, which the diagnostics word sends a resolution down while any of them
/// is alive; nothing below names what fills them. Every requirement has a default that does nothing, so
/// each plug-in implements only its part:
///
/// - an override scope (and the recording that finds an override's resolve) **answers** resolutions and
///   **owns** the cached instances resolved inside it;
/// - DependencyKitTesting's test context **inspects** each resolution for the test guard;
/// - a trace **records** each resolution as a node of its graph.
package protocol ResolutionInterceptor: AnyObject, Sendable {
    /// Answers a resolution instead of its builder, or returns `nil` to let it run as written.
    /// - Parameter next: Serves the resolution without this interceptor's answer.
    func answer<T, Failure: Error>(
        _ name: String,
        of _: T.Type,
        container: AnyObject,
        next: () throws(Failure) -> T
    ) throws(Failure) -> T?

    /// The asynchronous form of ``answer(_:of:container:next:)``.
    func answer<T, Failure: Error>(
        _ name: String,
        of _: T.Type,
        container: AnyObject,
        isolation: isolated (any Actor)?,
        next: () async throws(Failure) -> T
    ) async throws(Failure) -> T?

    /// The cached instances this interceptor owns for `container`, or `nil` for the container's own.
    func instances(for container: DependencyContainer) -> OwnedInstances?

    /// Looks at a resolution about to run its builder, with the chain of resolutions in progress.
    func inspect(_ resolution: Resolution, chain: [Diagnostics.Step])

    /// Begins recording a resolution under `parent`; returns its node, or `nil` when not recording.
    func begin(_ resolution: Resolution, parent: Int?) -> Int?

    /// Records the concrete type a recorded resolution produced.
    func finish(_ node: Int, producing type: any Any.Type)

    /// Records a problem the work made, once per `key`: a malformed override. Returns `false` when no
    /// test takes it, and the caller stops with the message instead.
    func record(_ key: String, _ message: () -> String) -> Bool

    /// Reports a global install in an injector of type `injectorType` while guarded tests run with containers of
    /// their own; `serves` tells which of those containers the injector serves.
    func reportGlobalInstall(of container: Any, in injectorType: Any.Type, serves: (AnyObject) -> Bool)

    /// A container for work outside every test's task that read `dependencies(as:)` when the global
    /// container it would otherwise read is not a `Refined`; `nil` to stop with the message as production does.
    func containerForEscapedWork<Refined>(as _: Refined.Type, insteadOf _: Any) -> Refined?
}

extension ResolutionInterceptor {
    package func answer<T, Failure: Error>(
        _ name: String,
        of _: T.Type,
        container: AnyObject,
        next: () throws(Failure) -> T
    ) throws(Failure) -> T? { nil }

    package func answer<T, Failure: Error>(
        _ name: String,
        of _: T.Type,
        container: AnyObject,
        isolation: isolated (any Actor)?,
        next: () async throws(Failure) -> T
    ) async throws(Failure) -> T? { nil }

    package func instances(for container: DependencyContainer) -> OwnedInstances? { nil }

    package func inspect(_ resolution: Resolution, chain: [Diagnostics.Step]) {}

    package func begin(_ resolution: Resolution, parent: Int?) -> Int? { nil }

    package func finish(_ node: Int, producing type: any Any.Type) {}

    package func record(_ key: String, _ message: () -> String) -> Bool { false }

    package func reportGlobalInstall(of container: Any, in injectorType: Any.Type, serves: (AnyObject) -> Bool) {}

    package func containerForEscapedWork<Refined>(as _: Refined.Type, insteadOf _: Any) -> Refined? { nil }
}

/// The interceptors in effect for the current task: the one task-local value behind
/// ``ResolutionInterceptor``, one slot per plug-in, like a value of settings. Child tasks inherit it;
/// `Task.detached` and other threads see ``processWide``, which a serial XCTest fills.
package struct Interception: Sendable {
    /// Answers resolutions and owns cached instances: the override scope in effect, or an override's
    /// recording while its closure runs.
    package var overrides: (any ResolutionInterceptor)?
    /// The guarded test the work belongs to.
    package var test: (any ResolutionInterceptor)?
    /// The trace that records the work's resolutions.
    package var trace: (any ResolutionInterceptor)?
    /// What the work is exempt from in the test guard.
    package var exemptions: Exemptions = []

    /// What a test, a suite or a piece of work has opted out of in the test guard.
    package struct Exemptions: OptionSet, Sendable {
        package let rawValue: Int

        package init(rawValue: Int) { self.rawValue = rawValue }

        /// Live leaves may be served by production code.
        package static let liveDependencies = Exemptions(rawValue: 1)
        /// The test may install global containers while scoped tests run.
        package static let globalInstalls = Exemptions(rawValue: 2)
        /// The work reads the global container on purpose (`DependencyContainer.Context.global`).
        package static let globalReads = Exemptions(rawValue: 4)
    }

    package init() {}

    /// The interceptors of the current task.
    @TaskLocal package static var current = Interception()

    /// What work sees where its task has none of its own: overrides and a test context a serial XCTest
    /// installed for the whole process, and the test guard's check of work that escaped every test.
    package static let processWide = Locked(Interception())

    /// The override scope in effect: the task's, else the process-wide one while any is alive.
    package static var overrides: (any ResolutionInterceptor)? {
        if let scoped = current.overrides { return scoped }
        guard DiagnosticsWord.hasOverrides(DiagnosticsWord.load()) else { return nil }
        return processWide.withLock { $0.overrides }
    }

    /// The test interceptor in effect: the task's, else the process-wide one.
    package static var test: (any ResolutionInterceptor)? {
        current.test ?? processWide.withLock { $0.test }
    }

    /// Runs `operation` with the current interceptors changed by `change`.
    package static func updating<R>(_ change: (inout Interception) -> Void, operation: () throws -> R) rethrows -> R {
        var value = current
        change(&value)
        return try $current.withValue(value, operation: operation)
    }

    /// The asynchronous form of ``updating(_:operation:)``.
    package static func updating<R>(
        _ change: (inout Interception) -> Void,
        isolation: isolated (any Actor)?,
        operation: () async throws -> R
    ) async rethrows -> R {
        var value = current
        change(&value)
        return try await $current.withValue(value, operation: operation, isolation: isolation)
    }

    /// Runs `body` with `overrides` in the override slot and returns its outcome, typed error included.
    static func outcome<R, Failure: Error>(
        overrides: (any ResolutionInterceptor)?,
        _ body: () throws(Failure) -> R
    ) -> Result<R, Failure> {
        var value = current
        value.overrides = overrides
        return $current.outcome(binding: value, body)
    }

    /// The asynchronous form of ``outcome(overrides:_:)``.
    static func outcome<R, Failure: Error>(
        overrides: (any ResolutionInterceptor)?,
        isolation: isolated (any Actor)?,
        _ body: () async throws(Failure) -> R
    ) async -> Result<R, Failure> {
        var value = current
        value.overrides = overrides
        return await $current.outcome(binding: value, isolation: isolation, body)
    }
}
