extension Diagnostics {
    /// Runs `body` and returns what it returned with the tree of the resolutions it performed.
    ///
    /// Only the current task and its child tasks are traced; a trace running at the same time in
    /// another task records its own resolutions. Traces nest: the innermost records.
    ///
    /// ```swift
    /// let (greeter, graph) = Diagnostics.trace { greetingInjector.dependencies.resolveGreeter() }
    /// try graph.renderDOT().write(to: url, atomically: true, encoding: .utf8)
    /// ```
    /// - Parameter body: The code to trace.
    /// - Returns: `body`'s result and the resolution graph.
    /// - Throws: What `body` throws, with its type; the graph is then discarded. To keep the
    ///   graph of a failed run, return a `Result` from `body` instead.
    public static func trace<R, Failure: Error>(
        _ body: () throws(Failure) -> R
    ) throws(Failure) -> (value: R, graph: ResolutionGraph) {
        let session = TraceSession()
        return try session.close(Interception.outcome({ $0.trace = session }, body))
    }

    /// Runs the asynchronous `body` and returns what it returned with the tree of the
    /// resolutions it and its child tasks performed.
    ///
    /// See ``trace(_:)``.
    /// - Parameters:
    ///   - isolation: The caller's isolation, inherited by `body`.
    ///   - body: The code to trace.
    /// - Returns: `body`'s result and the resolution graph.
    /// - Throws: What `body` throws, with its type; the graph is then discarded.
    public static func trace<R, Failure: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws(Failure) -> R
    ) async throws(Failure) -> (value: R, graph: ResolutionGraph) {
        let session = TraceSession()
        var traced = Interception.current
        traced.trace = session
        return try session.close(await Interception.$current.outcome(binding: traced, isolation: isolation, body))
    }
}

/// Records the resolutions of one ``Diagnostics/trace(_:)`` call.
///
/// Bound in a task-local for the traced code, so child tasks record into the same session and
/// a concurrent trace in another task records into its own. Records keep metatypes; names are
/// only rendered when the trace ends. A session counts itself in the diagnostics word from its
/// creation until ``close(_:)``.
final class TraceSession: ResolutionInterceptor {

    private struct Record {
        let resolution: Resolution
        let parent: Int?
        var resolvedType: (any Any.Type)?
    }

    /// What the traced code resolved, in the order the resolutions began; `nil` once the trace has
    /// ended, so that work which outlives it records nothing.
    private let records = Locked<[Record]?>([])

    init() { DiagnosticsWord.register(.trace) }

    /// Records that a resolution started; returns its node, or `nil` once the trace has ended.
    func observe(_ resolution: Resolution, parent: Int?, chain _: () -> [Diagnostics.Step]) -> Int? {
        records.withLock { records in
            records?.append(Record(resolution: resolution, parent: parent))
            return records.map { $0.count - 1 }
        }
    }

    /// Records the concrete type a resolution returned.
    func finish(_ node: Int, producing type: any Any.Type) {
        records.withLock { $0?[node].resolvedType = type }
    }

    /// Ends the trace and returns the traced code's outcome with the graph.
    func close<R, Failure: Error>(_ outcome: Result<R, Failure>) throws(Failure) -> (
        value: R, graph: Diagnostics.ResolutionGraph
    ) {
        let records = self.records.withLock { records in
            defer { records = nil }
            return records ?? []
        }
        DiagnosticsWord.unregister(.trace)
        var children = [[Int]](repeating: [], count: records.count)
        for (id, record) in records.enumerated() {
            if let parent = record.parent { children[parent].append(id) }
        }
        let nodes = records.enumerated().map { id, record in
            let step = record.resolution.step
            return Diagnostics.ResolutionGraph.Node(
                id: id, name: step.name, requestedType: step.requestedType,
                resolvedType: record.resolvedType.map { String(describing: $0) }, lifetime: step.lifetime,
                container: step.container, implementer: step.implementer, childIDs: children[id])
        }
        let roots = records.indices.filter { records[$0].parent == nil }
        return (try outcome.get(), Diagnostics.ResolutionGraph(nodes: nodes, roots: roots))
    }
}
