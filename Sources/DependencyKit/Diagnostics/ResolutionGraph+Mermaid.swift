extension ResolutionGraph {
    /// Renders the graph as a Mermaid flowchart, for Markdown that renders Mermaid (GitHub does).
    ///
    /// The same drawing as ``renderDOT(name:)``: each distinct resolution once, an arrow from a
    /// resolve to each resolve it called, shared instances in the `shared` class.
    ///
    /// ```mermaid
    /// flowchart TD
    ///     n0["UsersWorker<br/>resolveUsersWorker()<br/>fresh · CoreDependency"]
    ///     n1["UsersNetworkStore<br/>resolveUsersStore()<br/>fresh · CoreDependency"]
    ///     n0 --> n1
    /// ```
    /// - Returns: The flowchart source, without a trailing newline.
    public func renderMermaid() -> String {
        let drawing = drawing
        var lines = ["flowchart TD"]
        var sharedNodes: [String] = []
        for (index, node) in drawing.nodes.enumerated() {
            let label = node.labelLines.map(Self.mermaidEscaped).joined(separator: "<br/>")
            lines.append("    n\(index)[\"\(label)\"]")
            if node.isShared { sharedNodes.append("n\(index)") }
        }
        for edge in drawing.edges {
            lines.append("    n\(edge.from) --> n\(edge.to)")
        }
        if !sharedNodes.isEmpty {
            lines.append("    classDef shared fill:#e8f0fe")
            lines.append("    class \(sharedNodes.joined(separator: ",")) shared")
        }
        return lines.joined(separator: "\n")
    }

    /// `text` safe inside a quoted Mermaid label: markup characters become entity codes.
    static func mermaidEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "#": escaped += "#35;"
            case "\"": escaped += "#quot;"
            case "<": escaped += "#lt;"
            case ">": escaped += "#gt;"
            case "&": escaped += "#amp;"
            case "\n": escaped += "<br/>"
            case "\r": break
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
