import DependencyKit

/// How the demo reads a trace: which resolves a container overrides, which it inherits, and the
/// path an override cascades along.
extension Diagnostics.ResolutionGraph {
    /// One resolve a container served, as the trace recorded it.
    struct Served: Equatable {
        /// The resolve, such as `resolveUsersWorker()`.
        let name: String
        /// The concrete type it returned, such as `UsersWorker`.
        let type: String
    }

    /// The resolves its container's own class implements, each once, in the order they were first made.
    var overridden: [Served] {
        served { $0.isImplementedByContainer }
    }

    /// The resolves the container ran inherited code for, grouped by the class that wrote that
    /// code, nearest superclass first when both appear.
    var inherited: [(from: String, resolves: [Served])] {
        var implementers: [String] = []
        for node in nodes {
            if let implementer = node.implementer, !implementers.contains(implementer) {
                implementers.append(implementer)
            }
        }
        return implementers.map { implementer in
            (implementer, served { $0.implementer == implementer })
        }
    }

    /// The class of the container that served the traced resolves (the first one's).
    var containerName: String? { nodes.first?.container }

    /// The nodes from the first root for `root` down to the first node for `name`, depth first;
    /// empty if there is none.
    func path(from root: String, to name: String) -> [Node] {
        for node in roots where node.name == root {
            if let path = path(from: node, to: name) { return path }
        }
        return []
    }

    private func path(from node: Node, to name: String) -> [Node]? {
        if node.name == name { return [node] }
        for child in children(of: node) {
            if let rest = path(from: child, to: name) { return [node] + rest }
        }
        return nil
    }

    private func served(where include: (Node) -> Bool) -> [Served] {
        var seen: Set<String> = []
        var result: [Served] = []
        for node in nodes where include(node) && seen.insert(node.name).inserted {
            result.append(Served(name: node.name, type: node.resolvedType ?? "(no value)"))
        }
        return result
    }
}
