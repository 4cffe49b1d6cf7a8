extension ResolutionGraph {
    /// Renders the tree as indented text, one line per resolution performed.
    ///
    /// ```text
    /// resolveUsersWorker() → UsersWorker [fresh, CoreDependency]
    /// ├─ resolveUsersStore() → UsersNetworkStore [fresh, CoreDependency]
    /// │  └─ resolveHTTPService() → HTTPService [fresh, CoreDependency]
    /// │     └─ resolveHTTPConfiguration() → HTTPConfiguration [fresh, CoreDependency]
    /// └─ resolveUsersCache() → UsersFileCacheStore [fresh, CoreDependency]
    ///    └─ resolveUsersCacheDirectory() → URL [fresh, CoreDependency]
    /// ```
    ///
    /// When the produced type is an existential, the concrete type comes first:
    /// `resolveVehicle() → Bicycle as Vehicle [fresh, Showroom]`.
    ///
    /// A resolution that threw, or was still running when the trace ended, shows `(no value)`.
    /// - Returns: The lines, joined by newlines, without a trailing newline.
    public func renderText() -> String {
        var lines: [String] = []
        for root in roots {
            appendText(of: root, lead: "", childLead: "", to: &lines)
        }
        return lines.joined(separator: "\n")
    }

    private func appendText(of id: Int, lead: String, childLead: String, to lines: inout [String]) {
        let node = nodes[id]
        lines.append(lead + node.textLine)
        for (index, child) in node.children.enumerated() {
            let isLast = index == node.children.count - 1
            appendText(
                of: child,
                lead: childLead + (isLast ? "└─ " : "├─ "),
                childLead: childLead + (isLast ? "   " : "│  "),
                to: &lines
            )
        }
    }
}

extension ResolutionGraph.Node {
    /// `name → Resolved as Requested [lifetime, Container]`, omitting `as` when both types agree.
    var textLine: String {
        let resolved = resolvedType ?? "(no value)"
        let requested = resolvedType == requestedType ? "" : " as \(requestedType)"
        return "\(name) → \(resolved)\(requested) [\(ResolutionStep.details(lifetime, container, implementer))]"
    }

    /// The lines of a drawn node: the concrete type, the resolve, how and where.
    var labelLines: [String] {
        let second = resolvedType == requestedType ? name : "\(name) as \(requestedType)"
        var third = container.map { "\(lifetime.rawValue) · \($0)" } ?? lifetime.rawValue
        if let implementer { third += " · from \(implementer)" }
        return [resolvedType ?? "(no value)", second, third]
    }

    /// Whether the value is one instance per container, drawn filled.
    var isShared: Bool { lifetime == .shared || lifetime == .weakShared }
}
