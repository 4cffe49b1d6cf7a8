/// One resolution in progress, linked to the resolution that asked for it.
///
/// The innermost frame lives in a task-local, so the chain follows the work: a child task
/// (`async let`, a task group, `Task {}`) started inside a resolve sees the chain of that
/// resolve, and two tasks resolving at the same time never see each other's. Frames are
/// immutable apart from their "finished" mark, which lets cycle detection ignore the frames of
/// a resolve that has already returned when an unstructured task it started outlives it.
final class ResolutionFrame: Sendable {
    /// The innermost resolution in progress in the current task.
    @TaskLocal static var current: ResolutionFrame?

    /// How many times one resolution may nest directly inside itself before that counts as a
    /// cycle. An override that decorates the implementation it overrides (`super` or a default
    /// builder named like the resolve) nests once per layer of decoration; a resolve that
    /// calls itself unconditionally nests without end.
    static let decorationLimit = 16

    let name: String
    let requestedType: any Any.Type
    let lifetime: Diagnostics.Lifetime
    let containerID: ObjectIdentifier?
    let containerType: (any AnyObject.Type)?
    /// The class whose code performs the resolution, when it differs from nothing known.
    let implementerType: (any AnyObject.Type)?
    /// The frame of the resolution that asked for this one.
    let parent: ResolutionFrame?
    /// `0` for a resolution, `n` for the n-th direct re-entry of the same resolution (a decoration).
    let reentry: Int
    /// The trace recording this resolution, if any.
    let trace: TraceSession?
    /// This resolution's node in ``trace`` (shared with the outer frame for a re-entry).
    let node: Int?
    private let finished = AtomicWord(0)

    private init(
        name: String,
        requestedType: any Any.Type,
        lifetime: Diagnostics.Lifetime,
        container: AnyObject?,
        implementer: (any AnyObject.Type)?,
        parent: ResolutionFrame?,
        reentry: Int,
        trace: TraceSession?,
        node: Int?
    ) {
        self.name = name
        self.requestedType = requestedType
        self.lifetime = lifetime
        self.containerID = container.map(ObjectIdentifier.init)
        self.containerType = container.map { type(of: $0) }
        self.implementerType = implementer
        self.parent = parent
        self.reentry = reentry
        self.trace = trace
        self.node = node
    }

    /// Whether the resolution has returned or thrown.
    var isFinished: Bool { finished.loadAcquire() != 0 }

    /// What this frame resolves, for messages and graphs.
    var step: Diagnostics.Step {
        Diagnostics.Step(
            name: name,
            requestedType: String(describing: requestedType),
            lifetime: lifetime,
            container: containerType.map { String(describing: $0) },
            implementer: implementerType.map { String(describing: $0) }
        )
    }

    private func isSameResolution(name: String, typeID: ObjectIdentifier, containerID: ObjectIdentifier?) -> Bool {
        self.containerID == containerID && ObjectIdentifier(requestedType) == typeID && self.name == name
    }

    /// The nearest frame at or above `frame` whose resolution is still in progress.
    private static func live(_ frame: ResolutionFrame?) -> ResolutionFrame? {
        var candidate = frame
        while let current = candidate, current.isFinished {
            candidate = current.parent
        }
        return candidate
    }

    /// Makes the frame of a resolution about to run, or reports the cycle it would close.
    ///
    /// Returns `nil` when nothing needs the frame: cycle checking is off and the current task is
    /// not traced (another task's trace switched the gate on), so untraced work pays no more
    /// than a task-local read while a trace runs elsewhere.
    ///
    /// - Throws: ``Diagnostics/CycleError`` when cycle checking is on and the same resolution —
    ///   same name, requested type and container — is already in progress further up the chain.
    private static func make(
        _ name: String,
        of type: any Any.Type,
        lifetime: Diagnostics.Lifetime,
        container: AnyObject?,
        implementer: (any AnyObject.Type)?
    ) throws(Diagnostics.CycleError) -> ResolutionFrame? {
        let word = DiagnosticsWord.load()
        let checksCycles = DiagnosticsWord.checksCycles(word)
        let session = DiagnosticsWord.isTracing(word) ? TraceSession.current : nil
        guard checksCycles || session != nil else { return nil }
        let parent = current
        let liveParent = live(parent)
        let typeID = ObjectIdentifier(type)
        let containerID = container.map(ObjectIdentifier.init)

        // A resolution that carries a payload is never the same as another: recursion through
        // factories and configurators ends with its payloads.
        let carriesPayload = lifetime.carriesPayload
        var reentry = 0
        if !carriesPayload, let liveParent,
            liveParent.isSameResolution(name: name, typeID: typeID, containerID: containerID)
        {
            reentry = liveParent.reentry + 1
        }
        let frame = ResolutionFrame(
            name: name,
            requestedType: type,
            lifetime: lifetime,
            container: container,
            implementer: implementer,
            parent: parent,
            reentry: reentry,
            trace: session,
            node: reentry > 0 && liveParent?.trace === session
                ? liveParent?.node
                : session?.begin(
                    name: name,
                    requestedType: type,
                    lifetime: lifetime,
                    containerType: container.map { Swift.type(of: $0) },
                    implementerType: implementer,
                    parent: parent?.trace === session ? parent?.node : nil
                )
        )
        if checksCycles && !carriesPayload {
            if reentry >= decorationLimit {
                throw Diagnostics.CycleError(chain: [liveParent!.step, frame.step])
            }
            if reentry == 0, let cycle = frame.cycle(from: liveParent, typeID: typeID, containerID: containerID) {
                throw cycle
            }
        }
        return frame
    }

    /// Makes the frame of a resolution about to run, and shows it to DependencyKitTesting's guard.
    ///
    /// A cycle is thrown as `cycleError(_:)` of it, or, without `cycleError`, stops the process
    /// with its chain. Only resolutions that stop on a cycle and carry no payload — the builders of
    /// resolve methods — are shown to the guard.
    static func enter<Failure: Error>(
        _ name: String,
        of type: any Any.Type,
        lifetime: Diagnostics.Lifetime,
        container: AnyObject?,
        implementer: (any AnyObject.Type)?,
        cycleError: ((Diagnostics.CycleError) -> Failure)?
    ) throws(Failure) -> ResolutionFrame? {
        let frame: ResolutionFrame?
        do {
            frame = try make(name, of: type, lifetime: lifetime, container: container, implementer: implementer)
        } catch {
            guard let cycleError else { fatalError(error.trapMessage) }
            throw cycleError(error)
        }
        if cycleError == nil, !lifetime.carriesPayload, DiagnosticsWord.hasTestContexts(DiagnosticsWord.load()) {
            TestGuard.inspect(
                name,
                of: type,
                lifetime: lifetime,
                container: container,
                implementer: implementer,
                chain: frame?.liveChain ?? []
            )
        }
        return frame
    }

    /// The cycle this frame closes, if its resolution is already in progress above `start`.
    private func cycle(
        from start: ResolutionFrame?,
        typeID: ObjectIdentifier,
        containerID: ObjectIdentifier?
    ) -> Diagnostics.CycleError? {
        var path: [ResolutionFrame] = []
        var candidate = ResolutionFrame.live(start)
        while let frame = candidate {
            path.append(frame)
            if frame.isSameResolution(name: name, typeID: typeID, containerID: containerID) {
                // Start the chain at the outermost layer of a decorated resolution.
                var outer = frame
                while outer.reentry > 0, let above = ResolutionFrame.live(outer.parent) {
                    outer = above
                    path.append(above)
                }
                let steps = path.reversed().filter { $0.reentry == 0 }.map(\.step) + [step]
                return Diagnostics.CycleError(chain: steps)
            }
            candidate = ResolutionFrame.live(frame.parent)
        }
        return nil
    }

    /// The chain of resolutions in progress, outermost first.
    var liveChain: [Diagnostics.Step] {
        var steps: [Diagnostics.Step] = []
        var candidate = ResolutionFrame.live(self)
        while let frame = candidate {
            if frame.reentry == 0 { steps.append(frame.step) }
            candidate = ResolutionFrame.live(frame.parent)
        }
        return steps.reversed()
    }

    /// Runs the resolution with this frame innermost, then records what it produced.
    func run<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        defer { finished.storeRelease(1) }
        let value = try ResolutionFrame.$current.withValue(self, typed: body)
        recordValue(value)
        return value
    }

    /// Runs the asynchronous resolution with this frame innermost, then records what it produced.
    func run<T, Failure: Error>(
        isolation: isolated (any Actor)?,
        _ body: () async throws(Failure) -> T
    ) async throws(Failure) -> T {
        defer { finished.storeRelease(1) }
        let value = try await ResolutionFrame.$current.withValue(self, isolation: isolation, typed: body)
        recordValue(value)
        return value
    }

    private func recordValue<T>(_ value: T) {
        if reentry == 0, let trace, let node {
            trace.finish(node, resolvedType: Swift.type(of: value as Any))
        }
    }
}

/// Records the resolutions of one ``Diagnostics/trace(_:)`` call.
///
/// Bound in a task-local for the traced code, so child tasks record into the same session and
/// a concurrent trace in another task records into its own. Records keep metatypes; names are
/// only rendered when the trace ends.
final class TraceSession: Sendable {
    /// The trace the current task records into.
    @TaskLocal static var current: TraceSession?

    private struct Record {
        var name: String
        var requestedType: any Any.Type
        var resolvedType: (any Any.Type)?
        var lifetime: Diagnostics.Lifetime
        var containerType: (any AnyObject.Type)?
        var implementerType: (any AnyObject.Type)?
        var children: [Int] = []
    }

    private struct State {
        var records: [Record] = []
        var roots: [Int] = []
        var isClosed = false
    }

    private let state = Locked(State())

    /// Records that a resolution started; returns its node, or `nil` once the trace has ended.
    func begin(
        name: String,
        requestedType: any Any.Type,
        lifetime: Diagnostics.Lifetime,
        containerType: (any AnyObject.Type)?,
        implementerType: (any AnyObject.Type)? = nil,
        parent: Int?
    ) -> Int? {
        state.withLock { state in
            guard !state.isClosed else { return nil }
            let node = state.records.count
            state.records.append(
                Record(
                    name: name,
                    requestedType: requestedType,
                    lifetime: lifetime,
                    containerType: containerType,
                    implementerType: implementerType
                )
            )
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

    /// Ends the trace: later resolutions (from work that outlives it) are not recorded.
    func close() -> ResolutionGraph {
        let (records, roots) = state.withLock { state in
            state.isClosed = true
            return (state.records, state.roots)
        }
        let nodes = records.enumerated().map { id, record in
            let container = record.containerType.map { String(describing: $0) }
            let implementer = record.implementerType.map { String(describing: $0) }
            return ResolutionGraph.Node(
                id: id,
                name: record.name,
                requestedType: String(describing: record.requestedType),
                resolvedType: record.resolvedType.map { String(describing: $0) },
                lifetime: record.lifetime,
                container: container,
                implementer: implementer == container ? nil : implementer,
                childIDs: record.children
            )
        }
        return ResolutionGraph(nodes: nodes, roots: roots)
    }
}

extension TaskLocal {
    /// `withValue(_:operation:)` for a body that throws a typed error.
    ///
    /// `withValue` rethrows; handing it a `throws(Failure)` closure directly has crashed the
    /// compiler, so the body's outcome crosses it as a `Result`.
    func withValue<R, Failure: Error>(_ value: Value, typed body: () throws(Failure) -> R) throws(Failure) -> R {
        try withValue(value, operation: { () -> Result<R, Failure> in Result { () throws(Failure) in try body() } })
            .get()
    }

    /// The asynchronous form of ``withValue(_:typed:)``.
    func withValue<R, Failure: Error>(
        _ value: Value,
        isolation: isolated (any Actor)?,
        typed body: () async throws(Failure) -> R
    ) async throws(Failure) -> R {
        let result = await withValue(
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
        return try result.get()
    }
}
