/// The resolutions one traced piece of code performed, as a tree: which resolve called which.
///
/// Get one from ``Diagnostics/trace(_:)`` and render it with ``renderText()``,
/// ``renderDOT(name:)`` or ``renderMermaid()``, or walk it from ``roots`` with
/// ``children(of:)``. Nodes are numbered in the order their resolutions began, so code that
/// resolves sequentially always produces the same graph and the same renderings.
public struct ResolutionGraph: Sendable, Hashable, CustomStringConvertible {
    /// One resolution performed while tracing.
    public struct Node: Sendable, Hashable, Identifiable {
        /// The node's position in ``ResolutionGraph/nodes``, in the order resolutions began.
        public let id: Int
        /// The resolve's name, usually its method's `#function`.
        public let name: String
        /// The type the resolution was asked for: the result type of the closure given to
        /// `fresh {}` or `shared {}` (usually the concrete type), the requested type for the
        /// tagged registry (usually a protocol).
        public let requestedType: String
        /// The concrete type of the value it returned, such as `TimeOfDayGreeter`; `nil` when it
        /// threw, or was still running when the trace ended.
        public let resolvedType: String?
        /// How the value was produced.
        public let lifetime: Diagnostics.Lifetime
        /// The class of the container that served it, if any.
        public let container: String?
        /// The class whose code built the value, when the container ran code it inherited
        /// (`CoreGreetingDependency` for a resolve that `EveningDependency` does not override);
        /// `nil` when the container's own class implements the resolve, or when it is not known.
        public let implementer: String?
        /// Whether the container's own class implements this resolve (it overrides or declares
        /// it), as opposed to running code it inherited.
        public var isImplementedByContainer: Bool { implementer == nil }
        /// The ids of the resolutions it performed, in order; see ``ResolutionGraph/children(of:)``.
        let childIDs: [Int]

        /// The resolution as a step of a chain.
        var step: Diagnostics.Step {
            Diagnostics.Step(
                name: name, requestedType: requestedType, lifetime: lifetime, container: container,
                implementer: implementer)
        }

        /// Whether the value is shared between resolves (a container's, a scope's or a graph's
        /// instance), drawn filled.
        var isShared: Bool {
            lifetime == .shared || lifetime == .weakShared || lifetime == .scoped || lifetime == .perGraph
        }
    }

    /// Every resolution, in the order they began; a node's ``Node/id`` is its index.
    public let nodes: [Node]
    /// The resolutions the traced code asked for directly, in order.
    public var roots: [Node] { rootIDs.map { nodes[$0] } }
    private let rootIDs: [Int]

    init(nodes: [Node], roots: [Int]) {
        self.nodes = nodes
        self.rootIDs = roots
    }

    /// Whether the traced code resolved nothing through DependencyKit.
    public var isEmpty: Bool { nodes.isEmpty }

    /// The resolutions `node` performed.
    /// - Parameter node: A node of this graph.
    /// - Returns: Its children, in the order they began.
    public func children(of node: Node) -> [Node] {
        node.childIDs.map { nodes[$0] }
    }

    /// The graph as indented text; see ``renderText()``.
    public var description: String { renderText() }
}
