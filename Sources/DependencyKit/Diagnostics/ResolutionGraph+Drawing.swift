extension ResolutionGraph {
    /// The graph to draw: each distinct resolution once, each caller → callee edge once.
    ///
    /// Two resolutions are the same node when their name, types, lifetime and container agree
    /// (the tree resolves `resolveHTTPService()` once under each service; the drawing shows one
    /// box with two arrows into it). Nodes and edges are numbered in depth-first order of the
    /// tree, so the drawing is deterministic.
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

        func visit(_ id: Int) -> Int {
            let node = nodes[id]
            let key = NodeKey(node)
            let index: Int
            if let known = indexOfKey[key] {
                index = known
            } else {
                index = drawing.nodes.count
                indexOfKey[key] = index
                drawing.nodes.append(node)
            }
            for child in node.children {
                let childIndex = visit(child)
                if seenEdges.insert(EdgeKey(from: index, to: childIndex)).inserted {
                    drawing.edges.append((index, childIndex))
                }
            }
            return index
        }

        for root in roots {
            _ = visit(root)
        }
        return drawing
    }
}
