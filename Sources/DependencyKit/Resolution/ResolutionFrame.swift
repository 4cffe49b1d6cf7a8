internal import _DependencyKitShims

/// One resolution in progress, linked to the resolution that asked for it.
///
/// The innermost frame lives in a task-local, so the chain follows the work: a child task
/// (`async let`, a task group, `Task {}`) started inside a resolve sees the chain of that
/// resolve, and two tasks resolving at the same time never see each other's. Frames are
/// immutable apart from their "finished" mark, which lets cycle detection ignore the frames of
/// a resolve that has already returned when an unstructured task it started outlives it.
@usableFromInline
final class ResolutionFrame: Sendable {
    /// The innermost resolution in progress in the current task.
    @TaskLocal static var current: ResolutionFrame?

    /// How many times one resolution may nest directly inside itself before that counts as a
    /// cycle. An override that decorates the implementation it overrides (`super` or a default
    /// builder named like the resolve) nests once per layer of decoration; a resolve that
    /// calls itself unconditionally nests without end.
    static let decorationLimit = 16

    /// Nesting deeper than this on one thread is taken for a runaway resolution.
    ///
    /// Every synchronous resolution counts itself in a per-thread depth (a thread-local increment
    /// and decrement, and one compare). No real graph nests this deep on one thread, so past it the chain is kept and
    /// checked for cycles even with cycle checking off: a cycle is named in every build before it
    /// overflows the stack. A resolve that builds its value without `fresh {}` is not in the
    /// chain, so the chain can miss it; the message says so.
    @usableFromInline
    static let depthLimit = 512

    /// How many resolutions past ``depthLimit`` may nest without repeating one before the
    /// process stops without a cycle to name.
    static let recordLimit = 512

    /// Whether a resolution needs a frame under `word`: cycles are checked, a trace records, or a test inspects —
    /// the word is not idle once the override sets' count is masked out (one mask and one compare, constants).
    static func isObserved(_ word: Int) -> Bool { word & ~DiagnosticsWord.overrideSetBits != DiagnosticsWord.idle }

    let resolution: Resolution
    /// The frame of the resolution that asked for this one.
    let parent: ResolutionFrame?
    /// `0` for a resolution, `n` for the n-th direct re-entry of the same resolution (a decoration).
    let reentry: Int
    /// The trace recording this resolution, if any.
    let trace: (any ResolutionInterceptor)?
    /// This resolution's node in ``trace`` (shared with the outer frame for a re-entry).
    let node: Int?
    /// Set once the resolution has returned or thrown.
    fileprivate let finished = AtomicWord(0)

    /// Makes the frame of a resolution about to run in the current task, and begins its node in
    /// the current trace.
    ///
    /// `nil` when nothing needs the frame: cycle checking is off and the current task is not
    /// traced (another task's trace switched the gate on), so untraced work pays no more than a
    /// task-local read while a trace runs elsewhere.
    private init?(_ resolution: Resolution, word: Int, checksCycles: Bool) {
        let trace = DiagnosticsWord.isTracing(word) ? Interception.current.trace : nil
        guard checksCycles || trace != nil else { return nil }
        let parent = Self.current
        let liveParent = Self.liveFrames(from: parent).first
        // A resolution that carries a payload is never the same as another: recursion through
        // factories and configurators ends with its payloads.
        var reentry = 0
        if !resolution.lifetime.carriesPayload, let liveParent, liveParent.resolution.isSame(as: resolution) {
            reentry = liveParent.reentry + 1
        }
        self.resolution = resolution
        self.parent = parent
        self.reentry = reentry
        self.trace = trace
        self.node =
            reentry > 0 && liveParent?.trace === trace
            ? liveParent?.node
            : trace?.observe(resolution, parent: parent?.trace === trace ? parent?.node : nil, chain: { [] })
    }

    /// Makes the frame of a resolution about to run, throws or stops with the cycle it would
    /// close, and shows it to the test interceptor in effect.
    ///
    /// A resolution is in a cycle when cycle checking is on (or the resolution is past
    /// ``depthLimit`` on this thread) and the same resolution — same name, requested type and
    /// container — is already in progress further up the chain. Only resolutions that stop on a
    /// cycle and carry no payload — the builders of resolve methods — are shown to the guard.
    fileprivate static func enter<Failure: Error>(
        _ resolution: Resolution,
        depth: Int,
        cycleError: ((Diagnostics.CycleError) -> Failure)?
    ) throws(Failure) -> ResolutionFrame? {
        let word = DiagnosticsWord.load()
        // Past the depth limit the chain is checked whatever the setting, so that a runaway cycle is
        // named in every build.
        let checksCycles = DiagnosticsWord.checksCycles(word) || depth > depthLimit
        let frame = ResolutionFrame(resolution, word: word, checksCycles: checksCycles)
        if checksCycles, let cycle = frame?.closedCycle {
            let note = DiagnosticsWord.checksCycles(word) ? "" : runawayNote
            guard let cycleError else { fatalError(cycle.trapMessage + note) }
            throw cycleError(cycle)
        }
        if depth > depthLimit + recordLimit, let frame {
            let recent = liveFrames(from: frame).prefix(8).reversed().map { "  \($0.resolution.step)" }
            fatalError(
                """
                Resolutions nested more than \(depthLimit + recordLimit) deep on one thread without \
                repeating; the most recent:
                \(recent.joined(separator: "\n"))
                A resolve probably requires itself through resolves that build without `fresh {}`. \
                Wrap each resolve's body in `fresh {}` (or `shared {}`) so the cycle can be named.
                """
            )
        }
        if cycleError == nil, !resolution.lifetime.carriesPayload, DiagnosticsWord.hasTestContexts(word),
            let test = Interception.test
        {
            _ = test.observe(resolution, parent: nil) { frame?.liveChain ?? [] }
        }
        return frame
    }

    private static let runawayNote = """

        Found because resolutions nested more than \(depthLimit) deep on one thread. A resolve in \
        the cycle that builds its value without `fresh {}`, `live {}` or `shared {}` is not listed: \
        wrap every resolve's body so it is.
        """

    /// The frames at or above `frame` whose resolutions are still in progress, innermost first.
    private static func liveFrames(from frame: ResolutionFrame?) -> [ResolutionFrame] {
        guard let frame else { return [] }
        return sequence(first: frame, next: \.parent).filter { $0.finished.loadAcquire() == 0 }
    }

    /// The cycle this frame closes, if its resolution is already in progress further up the chain.
    private var closedCycle: Diagnostics.CycleError? {
        guard !resolution.lifetime.carriesPayload else { return nil }
        let above = Self.liveFrames(from: parent)
        if reentry >= Self.decorationLimit {
            return Diagnostics.CycleError(chain: [above[0].resolution.step, resolution.step])
        }
        guard reentry == 0, let repeated = above.firstIndex(where: { $0.resolution.isSame(as: resolution) }) else {
            return nil
        }
        // Start the chain at the outermost layer of a decorated resolution.
        let outermost = above[repeated...].firstIndex { $0.reentry == 0 } ?? above.count - 1
        let steps = above[...outermost].reversed().filter { $0.reentry == 0 }.map(\.resolution.step)
        return Diagnostics.CycleError(chain: steps + [resolution.step])
    }

    /// The chain of resolutions in progress, outermost first.
    var liveChain: [Diagnostics.Step] {
        Self.liveFrames(from: self).filter { $0.reentry == 0 }.map(\.resolution.step).reversed()
    }

    /// Records in the trace the concrete type of what the resolution produced.
    fileprivate func recordValue<T>(_ value: T) -> T {
        if reentry == 0, let trace, let node {
            trace.finish(node, producing: type(of: value as Any))
        }
        return value
    }
}

/// Runs a resolution on the diagnosed path: checks the chain for a cycle, shows the resolution
/// to DependencyKitTesting's guard and traces it.
///
/// A cycle is thrown as `cycleError(_:)` of it, or, without `cycleError`, stops the process
/// with its chain. A free function taking the resolution's parts, as the hooks have them:
/// building the ``Resolution`` in the inlined hook, or calling a static method of the class (whose
/// metadata the hook then loads and keeps in a register), each cost the undiagnosed path 12
/// instructions per AppCore graph (`Benchmarks/Scripts/benchmarks-instructions.sh graph.global`), although
/// the branch is not taken.
///
/// A counted resolution (one the hook's one compare sent off the plain path) also leaves its depth:
/// - a graph's outermost resolution (`depth` 1) while diagnostics are on adds the depth bias for the
///   graph's duration, so that every resolution nested in it also lands here, and is diagnosed;
/// - a nested resolution of such a graph has its depth past the bias; it is diagnosed at its real depth;
/// - otherwise the thread is past ``ResolutionFrame/depthLimit``: a runaway, checked for a cycle.
/// - Parameters:
///   - depth: The resolution's nesting on this thread (`0` when not counted): what the hook's increment
///     returned for a counted one.
///   - counted: Whether the hook counted the resolution in this thread's depth.
@usableFromInline
func diagnosedResolution<T, Failure: Error>(
    _ name: String, of type: any Any.Type, lifetime: Diagnostics.Lifetime, container: AnyObject?,
    implementer: (any AnyObject.Type)?, depth: Int, counted: Bool = false,
    cycleError: ((Diagnostics.CycleError) -> Failure)?, _ body: () throws(Failure) -> T
) throws(Failure) -> T {
    let bias = counted ? dk_resolution_depth_bias() : 0
    let outermost = counted && depth == 1
    if outermost { dk_resolution_depth_add(bias) }
    defer {
        if outermost { dk_resolution_depth_add(-bias) }
        if counted { dk_resolution_depth_leave() }
    }
    let depth = counted && depth > bias ? depth - bias : depth
    if cycleError == nil, !lifetime.carriesPayload, let container, let overrides = Interception.overrides,
        overrides.mayAnswer(name, of: ObjectIdentifier(T.self), container: ObjectIdentifier(container)),
        let answer = try interceptedAnswer(
            overrides, name, of: type, lifetime, container, implementer, depth: depth, cycleError, body)
    {
        return unboxed(answer, as: T.self)
    }
    // Nothing to check or record (only override scopes alive): no frame, no resolution to describe.
    if depth <= ResolutionFrame.depthLimit, !ResolutionFrame.isObserved(DiagnosticsWord.load()) { return try body() }
    return try framedResolution(name, of: type, lifetime, container, implementer, depth: depth, cycleError, body)
}

// The parts of a diagnosed resolution that make generic metadata for its type (an optional, a result) are
// functions of their own, and an answer crosses as `Any`: inlined, or as a `T?`, the optimiser fetches that
// metadata on entry, for every resolution (3,300 instructions more per request with a value scope,
// `request.values-override`; 330 for an answer as a `T?`).

/// What an interceptor answers a resolution with: its answer, else its transform of the resolution served with
/// its base first; `nil` when it answers nothing, and the resolution is served as written.
private func interceptedAnswer<T, Failure: Error>(
    _ overrides: any ResolutionInterceptor, _ name: String, of type: any Any.Type, _ lifetime: Diagnostics.Lifetime,
    _ container: AnyObject, _ implementer: (any AnyObject.Type)?, depth: Int,
    _ cycleError: ((Diagnostics.CycleError) -> Failure)?, _ body: () throws(Failure) -> T
) throws(Failure) -> Any? {
    var base: InterceptorBase?
    if let value = overrides.answer(name, of: T.self, container: container, base: &base) {
        return value
    }
    guard let base else { return nil }
    return try baseServedAnswer(base, name, of: type, lifetime, container, implementer, depth: depth, cycleError, body)
}

/// An interceptor's answer, a `T`, taken out as it is when stored as one, else cast: when it is stored as an
/// existential it fits (an `any CustomStringConvertible` holding the `Int` a resolve builds), `type(of:)` sees the
/// `Int` through the existential, but what the box holds is the existential, so only the opened type is compared.
private func unboxed<T>(_ answer: Any, as _: T.Type) -> T {
    func take<Stored>(_ stored: Stored) -> T {
        ObjectIdentifier(Stored.self) == ObjectIdentifier(T.self) ? unsafeBitCast(stored, to: T.self) : answer as! T
    }
    return _openExistential(answer, do: take)
}

/// A relative override's answer: the resolution served with `base`'s overrides in effect, then transformed; `nil`
/// when the transform does not apply.
private func baseServedAnswer<T, Failure: Error>(
    _ base: InterceptorBase, _ name: String, of type: any Any.Type, _ lifetime: Diagnostics.Lifetime,
    _ container: AnyObject, _ implementer: (any AnyObject.Type)?, depth: Int,
    _ cycleError: ((Diagnostics.CycleError) -> Failure)?, _ body: () throws(Failure) -> T
) throws(Failure) -> Any? {
    let served = try Interception.outcome({ $0.overrides = base.overrides }) { () throws(Failure) -> T in
        try diagnosedResolution(
            name, of: type, lifetime: lifetime, container: container, implementer: implementer, depth: depth,
            cycleError: cycleError, body)
    }.get()
    return base.finish(served)
}

/// A resolution something checks or records: pushed on the chain as a frame.
private func framedResolution<T, Failure: Error>(
    _ name: String, of type: any Any.Type, _ lifetime: Diagnostics.Lifetime, _ container: AnyObject?,
    _ implementer: (any AnyObject.Type)?, depth: Int, _ cycleError: ((Diagnostics.CycleError) -> Failure)?,
    _ body: () throws(Failure) -> T
) throws(Failure) -> T {
    let resolution = Resolution(name, of: type, lifetime: lifetime, container: container, implementer: implementer)
    guard let frame = try ResolutionFrame.enter(resolution, depth: depth, cycleError: cycleError) else {
        return try body()
    }
    defer { frame.finished.storeRelease(1) }
    // `withValue` rethrows; handing it a `throws(Failure)` closure directly has crashed the compiler, so
    // the body's outcome crosses it as a `Result`.
    return frame.recordValue(try ResolutionFrame.$current.withValue(frame) { Result(catching: body) }.get())
}

/// The asynchronous form of ``diagnosedResolution(_:of:lifetime:container:implementer:depth:cycleError:_:)``.
/// An asynchronous resolution may resume on another thread, so it is not counted in a thread's
/// depth.
@usableFromInline
func diagnosedResolution<T, Failure: Error>(
    _ name: String, of type: any Any.Type, lifetime: Diagnostics.Lifetime, container: AnyObject?,
    implementer: (any AnyObject.Type)?, isolation: isolated (any Actor)?,
    cycleError: ((Diagnostics.CycleError) -> Failure)?, _ body: () async throws(Failure) -> T
) async throws(Failure) -> T {
    if cycleError == nil, !lifetime.carriesPayload, let container, let overrides = Interception.overrides,
        overrides.mayAnswer(name, of: ObjectIdentifier(T.self), container: ObjectIdentifier(container))
    {
        var base: InterceptorBase?
        if let value = overrides.answer(name, of: T.self, container: container, base: &base) {
            return unboxed(value, as: T.self)
        }
        if let base {
            let served = try await Interception.outcome(overrides: base.overrides, isolation: isolation) {
                () async throws(Failure) -> T in
                try await diagnosedResolution(
                    name, of: type, lifetime: lifetime, container: container, implementer: implementer,
                    isolation: isolation, cycleError: cycleError, body)
            }.get()
            if let value = base.finish(served) as? T { return value }
        }
    }
    if !ResolutionFrame.isObserved(DiagnosticsWord.load()) { return try await body() }
    let resolution = Resolution(name, of: type, lifetime: lifetime, container: container, implementer: implementer)
    guard let frame = try ResolutionFrame.enter(resolution, depth: 0, cycleError: cycleError) else {
        return try await body()
    }
    defer { frame.finished.storeRelease(1) }
    return frame.recordValue(
        try await ResolutionFrame.$current.outcome(binding: frame, isolation: isolation, body).get())
}
