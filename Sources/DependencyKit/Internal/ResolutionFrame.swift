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

    let resolution: Resolution
    /// The frame of the resolution that asked for this one.
    let parent: ResolutionFrame?
    /// `0` for a resolution, `n` for the n-th direct re-entry of the same resolution (a decoration).
    let reentry: Int
    /// The trace recording this resolution, if any.
    let trace: TraceSession?
    /// This resolution's node in ``trace`` (shared with the outer frame for a re-entry).
    let node: Int?
    private let finished = AtomicWord(0)

    /// Makes the frame of a resolution about to run in the current task, and begins its node in
    /// the current trace.
    ///
    /// `nil` when nothing needs the frame: cycle checking is off and the current task is not
    /// traced (another task's trace switched the gate on), so untraced work pays no more than a
    /// task-local read while a trace runs elsewhere.
    private init?(_ resolution: Resolution, word: Int) {
        let trace = DiagnosticsWord.isTracing(word) ? TraceSession.current : nil
        guard DiagnosticsWord.checksCycles(word) || trace != nil else { return nil }
        let parent = Self.current
        let liveParent = Self.live(parent)
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
            ? liveParent?.node : trace?.begin(resolution, parent: parent?.trace === trace ? parent?.node : nil)
    }

    /// Runs a resolution on the diagnosed path: names a runaway cycle, checks the chain for a
    /// cycle, shows the resolution to DependencyKitTesting's guard and traces it.
    ///
    /// A cycle is thrown as `cycleError(_:)` of it, or, without `cycleError`, stops the process
    /// with its chain.
    /// - Parameter depth: The resolution's nesting on this thread (`0` when not counted).
    @usableFromInline
    static func run<T, Failure: Error>(
        _ resolution: Resolution,
        depth: Int,
        cycleError: ((Diagnostics.CycleError) -> Failure)?,
        _ body: () throws(Failure) -> T
    ) throws(Failure) -> T {
        if depth > RunawayResolution.depthLimit, let cycle = RunawayResolution.record(resolution, depth: depth) {
            guard let cycleError else { fatalError(cycle.trapMessage + RunawayResolution.runawayNote) }
            throw cycleError(cycle)
        }
        guard let frame = try enter(resolution, cycleError: cycleError) else { return try body() }
        defer { frame.finished.storeRelease(1) }
        return frame.recordValue(try $current.outcome(binding: frame, body).get())
    }

    /// The asynchronous form of ``run(_:depth:cycleError:_:)``, without runaway detection: an
    /// asynchronous resolution may resume on another thread, so it is not counted in a thread's depth.
    @usableFromInline
    static func run<T, Failure: Error>(
        _ resolution: Resolution,
        isolation: isolated (any Actor)?,
        cycleError: ((Diagnostics.CycleError) -> Failure)?,
        _ body: () async throws(Failure) -> T
    ) async throws(Failure) -> T {
        guard let frame = try enter(resolution, cycleError: cycleError) else { return try await body() }
        defer { frame.finished.storeRelease(1) }
        return frame.recordValue(try await $current.outcome(binding: frame, isolation: isolation, body).get())
    }

    /// Makes the frame of a resolution about to run, throws or stops with the cycle it would
    /// close, and shows it to DependencyKitTesting's guard.
    ///
    /// A resolution is in a cycle when cycle checking is on and the same resolution — same name,
    /// requested type and container — is already in progress further up the chain. Only
    /// resolutions that stop on a cycle and carry no payload — the builders of resolve methods —
    /// are shown to the guard.
    private static func enter<Failure: Error>(
        _ resolution: Resolution,
        cycleError: ((Diagnostics.CycleError) -> Failure)?
    ) throws(Failure) -> ResolutionFrame? {
        let word = DiagnosticsWord.load()
        let frame = ResolutionFrame(resolution, word: word)
        if DiagnosticsWord.checksCycles(word), let cycle = frame?.closedCycle {
            guard let cycleError else { fatalError(cycle.trapMessage) }
            throw cycleError(cycle)
        }
        if cycleError == nil, !resolution.lifetime.carriesPayload, DiagnosticsWord.hasTestContexts(word) {
            TestGuard.inspect(resolution, chain: frame?.liveChain ?? [])
        }
        return frame
    }

    /// Whether the resolution has returned or thrown.
    var isFinished: Bool { finished.loadAcquire() != 0 }

    /// The nearest frame at or above `frame` whose resolution is still in progress.
    private static func live(_ frame: ResolutionFrame?) -> ResolutionFrame? {
        var candidate = frame
        while let current = candidate, current.isFinished {
            candidate = current.parent
        }
        return candidate
    }

    /// The cycle this frame closes, if its resolution is already in progress further up the chain.
    private var closedCycle: Diagnostics.CycleError? {
        guard !resolution.lifetime.carriesPayload else { return nil }
        if reentry >= Self.decorationLimit, let outer = Self.live(parent) {
            return Diagnostics.CycleError(chain: [outer.resolution.step, resolution.step])
        }
        guard reentry == 0 else { return nil }
        var path: [ResolutionFrame] = []
        var candidate = Self.live(parent)
        while let frame = candidate {
            path.append(frame)
            if frame.resolution.isSame(as: resolution) {
                // Start the chain at the outermost layer of a decorated resolution.
                var outer = frame
                while outer.reentry > 0, let above = Self.live(outer.parent) {
                    outer = above
                    path.append(above)
                }
                let steps = path.reversed().filter { $0.reentry == 0 }.map(\.resolution.step) + [resolution.step]
                return Diagnostics.CycleError(chain: steps)
            }
            candidate = Self.live(frame.parent)
        }
        return nil
    }

    /// The chain of resolutions in progress, outermost first.
    var liveChain: [Diagnostics.Step] {
        var steps: [Diagnostics.Step] = []
        var candidate = Self.live(self)
        while let frame = candidate {
            if frame.reentry == 0 { steps.append(frame.resolution.step) }
            candidate = Self.live(frame.parent)
        }
        return steps.reversed()
    }

    /// Records in the trace the concrete type of what the resolution produced.
    private func recordValue<T>(_ value: T) -> T {
        if reentry == 0, let trace, let node {
            trace.finish(node, resolvedType: type(of: value as Any))
        }
        return value
    }
}

/// Records the resolutions of one ``Diagnostics/trace(_:)`` call.
///
/// Bound in a task-local for the traced code, so child tasks record into the same session and
/// a concurrent trace in another task records into its own. Records keep metatypes; names are
/// only rendered when the trace ends. A session counts itself in the diagnostics word from its
/// creation until ``close(_:)``.
final class TraceSession: Sendable {
    /// The trace the current task records into.
    @TaskLocal static var current: TraceSession?

    private struct Record {
        let resolution: Resolution
        var resolvedType: (any Any.Type)?
        var children: [Int] = []
    }

    private struct State {
        var records: [Record] = []
        var roots: [Int] = []
        var isClosed = false
    }

    private let state = Locked(State())

    init() { DiagnosticsWord.add(DiagnosticsWord.traceUnit) }

    /// Records that a resolution started; returns its node, or `nil` once the trace has ended.
    func begin(_ resolution: Resolution, parent: Int?) -> Int? {
        state.withLock { state in
            guard !state.isClosed else { return nil }
            let node = state.records.count
            state.records.append(Record(resolution: resolution))
            if let parent {
                state.records[parent].children.append(node)
            } else {
                state.roots.append(node)
            }
            return node
        }
    }

    /// Records the concrete type a resolution returned.
    func finish(_ node: Int, resolvedType: any Any.Type) {
        state.withLock { state in
            guard !state.isClosed else { return }
            state.records[node].resolvedType = resolvedType
        }
    }

    /// Ends the trace (later resolutions, from work that outlives it, are not recorded) and returns
    /// the traced code's outcome with the graph.
    func close<R, Failure: Error>(_ outcome: Result<R, Failure>) throws(Failure) -> (value: R, graph: ResolutionGraph) {
        let (records, roots) = state.withLock { state in
            state.isClosed = true
            return (state.records, state.roots)
        }
        DiagnosticsWord.add(-DiagnosticsWord.traceUnit)
        let nodes = records.enumerated().map { id, record in
            let step = record.resolution.step
            return ResolutionGraph.Node(
                id: id, name: step.name, requestedType: step.requestedType,
                resolvedType: record.resolvedType.map { String(describing: $0) }, lifetime: step.lifetime,
                container: step.container, implementer: step.implementer, childIDs: record.children)
        }
        return (try outcome.get(), ResolutionGraph(nodes: nodes, roots: roots))
    }
}

extension TaskLocal {
    /// Runs `body` with `value` bound and returns its outcome, typed error included.
    ///
    /// `withValue` rethrows; handing it a `throws(Failure)` closure directly has crashed the
    /// compiler, so the body's outcome crosses it as a `Result`.
    func outcome<R, Failure: Error>(binding value: Value, _ body: () throws(Failure) -> R) -> Result<R, Failure> {
        withValue(value) { Result(catching: body) }
    }

    /// The asynchronous form of ``outcome(binding:_:)``.
    func outcome<R, Failure: Error>(
        binding value: Value,
        isolation: isolated (any Actor)?,
        _ body: () async throws(Failure) -> R
    ) async -> Result<R, Failure> {
        await withValue(
            value,
            operation: { () async -> Result<R, Failure> in
                do throws(Failure) {
                    return .success(try await body())
                } catch {
                    return .failure(error)
                }
            },
            isolation: isolation
        )
    }
}
