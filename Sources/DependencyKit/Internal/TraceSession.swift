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
        var lifetime: ResolutionLifetime
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
        lifetime: ResolutionLifetime,
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
                children: record.children
            )
        }
        return ResolutionGraph(nodes: nodes, roots: roots)
    }
}
