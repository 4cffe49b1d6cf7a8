extension ResolutionGraph {
    /// The graph to draw: each distinct resolution once, each caller → callee edge once.
    ///
    /// Two resolutions are the same node when their name, types, lifetime and container agree
    /// (the tree resolves `resolveHTTPService()` once under each service; the drawing shows one
    /// box with two arrows into it). Nodes and edges come in depth-first order of the tree, so
    /// the drawing is deterministic.
    struct Drawing {
        var nodes: [Node] = []
        var edges: [(from: Int, to: Int)] = []
    }

    private struct NodeKey: Hashable {
        let name: String
        let requestedType: String
        let resolvedType: String?
        let lifetime: ResolutionLifetime
        let container: String?

        init(_ node: Node) {
            name = node.name
            requestedType = node.requestedType
            resolvedType = node.resolvedType
            lifetime = node.lifetime
            container = node.container
        }
    }

    private struct EdgeKey: Hashable {
        let from: Int
        let to: Int
    }

    var drawing: Drawing {
        var drawing = Drawing()
        var indexOfKey: [NodeKey: Int] = [:]
        var seenEdges: Set<EdgeKey> = []

        func index(of node: Node) -> Int {
            let key = NodeKey(node)
            if let known = indexOfKey[key] { return known }
            let index = drawing.nodes.count
            indexOfKey[key] = index
            drawing.nodes.append(node)
            return index
        }

        // Depth first, in the tree's order: a node is numbered, then each child in turn is
        // numbered, linked and visited — the same order as the text rendering's lines.
        func visit(_ id: Int) {
            let from = index(of: nodes[id])
            for child in nodes[id].children {
                let to = index(of: nodes[child])
                if seenEdges.insert(EdgeKey(from: from, to: to)).inserted {
                    drawing.edges.append((from, to))
                }
                visit(child)
            }
        }

        for root in roots {
            visit(root)
        }
        return drawing
    }
}
