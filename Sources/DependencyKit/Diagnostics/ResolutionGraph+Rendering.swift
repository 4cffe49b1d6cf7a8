extension ResolutionGraph {
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
        text.reduce(into: "") { escaped, character in
            if let replacement = escapes[character] { escaped += replacement } else { escaped.append(character) }
        }
    }
}
