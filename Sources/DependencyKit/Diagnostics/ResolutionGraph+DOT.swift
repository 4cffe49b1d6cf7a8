extension ResolutionGraph {
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
        let drawing = drawing
        var lines = [
            "digraph \(Self.dotQuoted(name)) {",
            "    rankdir=TB;",
            "    node [shape=box, style=rounded, fontname=\"Helvetica\"];",
        ]
        for (index, node) in drawing.nodes.enumerated() {
            let label = node.labelLines.map(Self.dotEscaped).joined(separator: "\\n")
            let style = node.isShared ? ", style=\"rounded,filled\", fillcolor=\"#e8f0fe\"" : ""
            lines.append("    n\(index) [label=\"\(label)\"\(style)];")
        }
        for edge in drawing.edges {
            lines.append("    n\(edge.from) -> n\(edge.to);")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// `text` as the inside of a DOT double-quoted string.
    static func dotEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            case "\r": break
            default: escaped.append(character)
            }
        }
        return escaped
    }

    static func dotQuoted(_ text: String) -> String {
        "\"\(dotEscaped(text))\""
    }
}
