extension Diagnostics {
    /// The resolutions one traced piece of code performed, as a tree: which resolve called which.
    ///
    /// Get one from ``Diagnostics/trace(_:)`` and render it with ``renderText()``,
    /// ``renderDOT(name:)`` or ``renderMermaid()``, or walk it from ``roots`` with
    /// ``children(of:)``. Nodes are numbered in the order their resolutions began, so code that
    /// resolves sequentially always produces the same graph and the same renderings.
    public struct ResolutionGraph: Sendable, Hashable, CustomStringConvertible {
        /// One resolution performed while tracing.
        public struct Node: Sendable, Hashable, Identifiable {
            /// The node's position in ``Diagnostics/ResolutionGraph/nodes``, in the order resolutions began.
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
            /// The ids of the resolutions it performed, in order; see ``Diagnostics/ResolutionGraph/children(of:)``.
            let childIDs: [Int]

            /// The resolution as a step of a chain.
            var step: Diagnostics.Step {
                Diagnostics.Step(
                    name: name, requestedType: requestedType, lifetime: lifetime, container: container,
                    implementer: implementer)
            }

            /// Whether the value is shared between resolves (a container's, a scope's or a graph's
            /// instance), drawn filled.
            var isShared: Bool { [.shared, .weakShared, .appShared, .scoped, .perGraph].contains(lifetime) }
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
}

extension Diagnostics.ResolutionGraph {
    /// Renders the tree as indented text, one line per resolution performed.
    ///
    /// ```text
    /// resolveGreeter() → TimeOfDayGreeter as Greeter [fresh, CoreGreetingDependency]
    /// └─ resolveClock() → SystemClock as Clock [live, CoreGreetingDependency]
    /// ```
    ///
    /// When the produced type is an existential, as here, the concrete type comes first. A
    /// resolution that threw, or was still running when the trace ended, shows `(no value)`.
    /// - Returns: The lines, joined by newlines, without a trailing newline.
    public func renderText() -> String {
        var lines: [String] = []
        func append(_ node: Node, lead: String, childLead: String) {
            let resolved = node.resolvedType ?? "(no value)"
            let requested = node.resolvedType == node.requestedType ? "" : " as \(node.requestedType)"
            lines.append("\(lead)\(node.name) → \(resolved)\(requested) [\(node.step.details)]")
            let children = children(of: node)
            for (index, child) in children.enumerated() {
                let isLast = index == children.count - 1
                append(
                    child, lead: childLead + (isLast ? "└─ " : "├─ "), childLead: childLead + (isLast ? "   " : "│  "))
            }
        }
        for root in roots {
            append(root, lead: "", childLead: "")
        }
        return lines.joined(separator: "\n")
    }

    /// Renders the graph in Graphviz's DOT language.
    ///
    /// Each distinct resolution is one box (concrete type, resolve, lifetime and container);
    /// an arrow goes from a resolve to each resolve it called. Shared instances are filled.
    /// Render it with Graphviz:
    ///
    /// ```sh
    /// dot -Tsvg graph.dot -o graph.svg
    /// ```
    /// - Parameter name: The graph's name in the DOT source.
    /// - Returns: The DOT source, without a trailing newline.
    public func renderDOT(name: String = "Dependencies") -> String {
        let escapes: [Character: String] = ["\\": "\\\\", "\"": "\\\"", "\n": "\\n", "\r": ""]
        let (nodes, edges) = drawing
        var lines = [
            "digraph \"\(Self.escaped(name, escapes))\" {",
            "    rankdir=TB;",
            "    node [shape=box, style=rounded, fontname=\"Helvetica\"];",
        ]
        for (index, node) in nodes.enumerated() {
            let label = Self.label(of: node).map { Self.escaped($0, escapes) }.joined(separator: "\\n")
            let style = node.isShared ? ", style=\"rounded,filled\", fillcolor=\"#e8f0fe\"" : ""
            lines.append("    n\(index) [label=\"\(label)\"\(style)];")
        }
        lines += edges.map { "    n\($0[0]) -> n\($0[1]);" }
        return (lines + ["}"]).joined(separator: "\n")
    }

    /// Renders the graph as a Mermaid flowchart, for Markdown that renders Mermaid (GitHub does).
    ///
    /// The same drawing as ``renderDOT(name:)``: each distinct resolution once, an arrow from a
    /// resolve to each resolve it called, shared instances in the `shared` class.
    ///
    /// ```mermaid
    /// flowchart TD
    ///     n0["TimeOfDayGreeter<br/>resolveGreeter() as Greeter<br/>fresh · CoreGreetingDependency"]
    ///     n1["SystemClock<br/>resolveClock() as Clock<br/>live · CoreGreetingDependency"]
    ///     n0 --> n1
    /// ```
    /// - Returns: The flowchart source, without a trailing newline.
    public func renderMermaid() -> String {
        // Markup characters become entity codes inside a quoted label.
        let escapes: [Character: String] = [
            "#": "#35;", "\"": "#quot;", "<": "#lt;", ">": "#gt;", "&": "#amp;", "\n": "<br/>", "\r": "",
        ]
        let (nodes, edges) = drawing
        var lines = ["flowchart TD"]
        for (index, node) in nodes.enumerated() {
            let label = Self.label(of: node).map { Self.escaped($0, escapes) }.joined(separator: "<br/>")
            lines.append("    n\(index)[\"\(label)\"]")
        }
        lines += edges.map { "    n\($0[0]) --> n\($0[1])" }
        let shared = nodes.indices.filter { nodes[$0].isShared }.map { "n\($0)" }
        if !shared.isEmpty {
            lines += ["    classDef shared fill:#e8f0fe", "    class \(shared.joined(separator: ",")) shared"]
        }
        return lines.joined(separator: "\n")
    }

    /// The graph to draw: each distinct resolution once, each caller → callee edge once.
    ///
    /// Two resolutions are the same node when their name, types, lifetime and container agree
    /// (a tree that resolves `resolveClock()` under two resolves is drawn as one box with two
    /// arrows into it). Nodes and edges come in depth-first order of the tree, the order of the
    /// text rendering's lines, so the drawing is deterministic.
    var drawing: (nodes: [Node], edges: [[Int]]) {
        var nodes: [Node] = []
        var edges: [[Int]] = []
        var indexOfKey: [[String?]: Int] = [:]
        var seenEdges: Set<[Int]> = []
        func index(of node: Node) -> Int {
            let key = [node.name, node.requestedType, node.resolvedType, node.lifetime.rawValue, node.container]
            if let known = indexOfKey[key] { return known }
            indexOfKey[key] = nodes.count
            nodes.append(node)
            return nodes.count - 1
        }
        func visit(_ node: Node) {
            let from = index(of: node)
            for child in children(of: node) {
                let edge = [from, index(of: child)]
                if seenEdges.insert(edge).inserted { edges.append(edge) }
                visit(child)
            }
        }
        roots.forEach(visit)
        return (nodes, edges)
    }

    /// The lines of a drawn node: the concrete type, the resolve, how and where.
    private static func label(of node: Node) -> [String] {
        let second = node.resolvedType == node.requestedType ? node.name : "\(node.name) as \(node.requestedType)"
        var third = node.container.map { "\(node.lifetime.rawValue) · \($0)" } ?? node.lifetime.rawValue
        if let implementer = node.implementer { third += " · from \(implementer)" }
        return [node.resolvedType ?? "(no value)", second, third]
    }

    private static func escaped(_ text: String, _ escapes: [Character: String]) -> String {
        text.map { escapes[$0] ?? String($0) }.joined()
    }
}
