internal import _DependencyKitShims

/// What plugs into resolution from the layers above it: an override scope, a guarded test, a trace.
///
/// The resolution layer declares this one protocol and one task-local value (``Interception``) and asks
/// them only on the diagnosed path, which the diagnostics word sends a resolution down while any of them
/// is alive; nothing below names what fills them. A plug-in **answers** a resolution, **owns** the cached
/// instances resolved inside it, or **observes** resolutions; every requirement has a default that does
/// nothing, so each implements only its part:
///
/// - an override scope (and the recording that finds an override's resolve) answers and owns;
/// - a trace observes each resolution as a node of its graph, and its produced type;
/// - DependencyKitTesting's guard observes each resolution with the chain that led to it.
///
/// What a plug-in wants from the layers above this one (the test guard's reports of installs, of escaped
/// `dependencies(as:)` reads, of malformed overrides) is declared there (`InjectionObserver`).
package protocol ResolutionInterceptor: AnyObject, Sendable {
    /// Answers a resolution instead of its builder with a `T`, or returns `nil` to let it run as written, or to
    /// have it serve its base first when the interceptor sets `base`: one synchronous decision for synchronous
    /// and asynchronous resolutions alike, which serve a base each in its own form. The answer is returned as
    /// `Any`, not as a `T?`, whose generic metadata the resolution would make on every answer (a request's value).
    func answer<T>(_ name: String, of _: T.Type, container: AnyObject, base: inout InterceptorBase?) -> Any?

    /// Whether ``answer(_:of:container:base:)`` may do anything for this resolution: `false` skips it. Not
    /// generic, so that a resolution the interceptor leaves alone makes no generic metadata for its type (a
    /// request's value scope asked by every resolve of the request, answering one).
    func mayAnswer(_ name: String, of type: ObjectIdentifier, container: ObjectIdentifier) -> Bool

    /// The cached instances this interceptor owns for `container`, or `nil` for the container's own.
    func instances(for container: DependencyContainer) -> OwnedInstances?

    /// Observes a resolution about to run its builder, under the node `parent` of this interceptor's
    /// observations; `chain` gives the resolutions in progress, outermost first, when asked. Returns the
    /// resolution's node, to ``finish(_:producing:)``, or `nil` when the interceptor keeps none.
    func observe(_ resolution: Resolution, parent: Int?, chain: () -> [Diagnostics.Step]) -> Int?

    /// Observes the concrete type an observed resolution produced.
    func finish(_ node: Int, producing type: any Any.Type)
}

/// What a resolution serves before an interceptor answers it: itself as written, with `overrides` in effect
/// instead of the current ones (its base), handed to `finish`, which returns the answer, or `nil` to let the
/// resolution run as written. Not generic, so that an answer with a value makes no generic metadata.
package struct InterceptorBase {
    let overrides: (any ResolutionInterceptor)?
    let finish: (Any) -> Any?
}

extension ResolutionInterceptor {
    package func answer<T>(_ name: String, of _: T.Type, container: AnyObject, base: inout InterceptorBase?) -> Any? {
        nil
    }

    package func mayAnswer(_ name: String, of type: ObjectIdentifier, container: ObjectIdentifier) -> Bool { true }

    package func instances(for container: DependencyContainer) -> OwnedInstances? { nil }

    package func observe(_ resolution: Resolution, parent: Int?, chain: () -> [Diagnostics.Step]) -> Int? { nil }

    package func finish(_ node: Int, producing type: any Any.Type) {}
}

/// The interceptors in effect for the current task: the one task-local value behind
/// ``ResolutionInterceptor``, one slot per plug-in, like a value of settings. Child tasks inherit it;
/// `Task.detached` and other threads see ``processWide``, which a serial XCTest fills.
@usableFromInline
package struct Interception: Sendable {
    /// Answers resolutions and owns cached instances: the override scope in effect, or an override's
    /// recording while its closure runs.
    package var overrides: (any ResolutionInterceptor)?
    /// Observes the resolutions of the guarded test the work belongs to.
    package var test: (any ResolutionInterceptor)?
    /// Observes the work's resolutions as a graph.
    package var trace: (any ResolutionInterceptor)?
    /// A fact the injection layer states about the work, for the observers to weigh: it reads the global
    /// containers on purpose (`DependencyContainer.Context.global`).
    package var readsGlobalOnPurpose = false

    package init() {}

    /// The interceptors of the current task.
    @TaskLocal package static var current = Interception()

    /// ``current``'s task-local, for inlinable code that binds it.
    @usableFromInline
    static var currentLocal: TaskLocal<Interception> { $current }

    /// The override scope in effect: the task's, else the process-wide one while any is alive.
    package static var overrides: (any ResolutionInterceptor)? {
        if let scoped = scopedOverrides { return scoped }
        guard DiagnosticsWord.hasOverrides(DiagnosticsWord.load()) else { return nil }
        return processWide.overrides
    }

    /// The task's own override interceptor, read in place: the rest of the bound value is not copied.
    private static var scopedOverrides: (any ResolutionInterceptor)? {
        #if PublicAPIOnly
            return current.overrides
        #else
            // Unbound, the task-local's default is in effect, whose slot is empty.
            let found = boundTaskLocalValue(of: Interception.self, key: currentKey)?.pointee.overrides
            #if DEBUG
                RuntimeShortcutCheck.taskLocal(
                    found: found.map { address(of: $0) }, expected: current.overrides.map { address(of: $0) })
            #endif
            return found
        #endif
    }

    /// The key ``current`` is stored under (see `taskLocalKey(_:)`).
    private static let currentKey = taskLocalKey($current)

    /// The test interceptor in effect: the task's, else the process-wide one.
    package static var test: (any ResolutionInterceptor)? { current.test ?? processWide.test }

    /// Runs `operation` with the current interceptors changed by `change`. A binding made inside a
    /// synchronous resolve diverts the rest of that graph down the diagnosed path, where the new
    /// interceptors are asked (the graph's outermost resolution read the diagnostics word before they
    /// counted themselves in it): the one place every synchronous binding does so.
    package static func updating<R>(_ change: (inout Interception) -> Void, operation: () throws -> R) rethrows -> R {
        var value = current
        change(&value)
        // Inside a graph, the depth bias sends the rest of it down the diagnosed path, as its outermost
        // resolution does when it reads the diagnostics word active (`diagnosedResolution`).
        let (depth, bias) = (dk_resolution_depth_get(), dk_resolution_depth_bias())
        let diverted = depth > 0 && depth < bias ? bias : 0
        if diverted != 0 { dk_resolution_depth_add(diverted) }
        defer { dk_resolution_depth_add(-diverted) }
        return try $current.withValue(value, operation: operation)
    }

    /// The asynchronous form of ``updating(_:operation:)``; an asynchronous resolution is diagnosed
    /// without a thread's depth, so nothing is diverted.
    @inline(__always)
    package static func updating<R>(
        _ change: (inout Interception) -> Void,
        isolation: isolated (any Actor)?,
        operation: () async throws -> R
    ) async rethrows -> R {
        var value = current
        change(&value)
        return try await $current.withValue(value, operation: operation, isolation: isolation)
    }

    /// Runs `body` with the current interceptors changed by `change` and returns its outcome, typed
    /// error included.
    static func outcome<R, Failure: Error>(
        _ change: (inout Interception) -> Void,
        _ body: () throws(Failure) -> R
    ) -> Result<R, Failure> {
        updating(change) { Result(catching: body) }
    }

    /// Runs the asynchronous `body` with `overrides` in the override slot and returns its outcome, typed
    /// error included.
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

// MARK: - The process-wide interceptors

extension Interception {
    /// What work sees where its task has none of its own: overrides and a test context a serial XCTest
    /// installed for the whole process, and the test guard's watch over work that escaped every test.
    ///
    /// Read without a lock: the value sits in an immutable box published in one atomic word, and a reader
    /// copies it out under its thread's hazard slot (``HazardSlot``), so a task without interceptors of its
    /// own takes no process-wide lock. A writer (``updateProcessWide(_:)``) publishes a new box, then frees
    /// the old one once no thread announces the word. Why no reader touches a freed box is the argument of
    /// `Injector.global`, whose reads this repeats: the announcement, the load, the writer's exchange and
    /// its scan are sequentially consistent, so a reader either is seen by the scan or loads the new box.
    package static var processWide: Interception {
        let slot = HazardSlot()
        let raw = slot.protect(processWideBox.word)
        defer { slot.clear() }
        guard let box = UnsafeRawPointer(bitPattern: raw) else { return Interception() }
        return Unmanaged<ProcessWideBox>.fromOpaque(box)._withUnsafeGuaranteedRef { $0.value }
    }

    /// Changes the process-wide interceptors and returns what `change` returns; writers take turns.
    @discardableResult
    package static func updateProcessWide<R>(_ change: (inout Interception) -> R) -> R {
        let (result, oldBox) = processWideWriters.withLock { _ in
            // Writers take turns, so the box read here is the one this writer replaces.
            var value = processWide
            let result = change(&value)
            let box = Unmanaged.passRetained(ProcessWideBox(value))
            return (result, processWideBox.exchange(Int(bitPattern: box.toOpaque())))
        }
        // A reader announces the word for the few instructions of one copy; the old box (and the
        // interceptors only it held, whose deinits may run user code) is released outside the lock.
        while HazardSlot.isAnnounced(processWideBox.word) {}
        if let old = UnsafeRawPointer(bitPattern: oldBox) { Unmanaged<ProcessWideBox>.fromOpaque(old).release() }
        return result
    }

    /// The published box; `0` until the first write.
    private static let processWideBox = AtomicWord(0)
    /// Makes writers take turns.
    private static let processWideWriters = Locked(0)

    /// One published value of the process-wide interceptors, never changed.
    private final class ProcessWideBox: Sendable {
        let value: Interception
        init(_ value: Interception) { self.value = value }
    }
}
