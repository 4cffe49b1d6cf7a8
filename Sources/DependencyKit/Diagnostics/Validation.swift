extension Diagnostics {
    /// What resolving a list of a container's dependencies found: each resolve, what it threw, and the
    /// resolution graph of them all.
    ///
    /// Made by ``Diagnostics/validate(_:_:)`` for tests and by
    /// ``DependencyContainer/Resolving/warmUp(_:)`` at start-up.
    public struct Report: Sendable, CustomStringConvertible {
        /// One listed resolve and how it went.
        public struct Entry: Sendable {
            /// The position of the resolve in the list, from `0`.
            public let index: Int
            /// The outermost resolve it performed (`resolveDatabase()`), or `#index` when it performed
            /// none.
            public let name: String
            /// What it threw, or `nil` if it succeeded.
            public let error: (any Error)?
            /// The resolutions it performed.
            public let graph: ResolutionGraph
        }

        /// Every listed resolve, in the order listed.
        public let entries: [Entry]

        /// The resolves that threw.
        public var failures: [Entry] { entries.filter { $0.error != nil } }

        /// Whether every listed resolve succeeded.
        public var succeeded: Bool { failures.isEmpty }

        /// The resolution graph of every listed resolve: one root per resolve.
        public var graph: ResolutionGraph {
            var nodes: [ResolutionGraph.Node] = []
            var roots: [Int] = []
            for entry in entries {
                let offset = nodes.count
                roots += entry.graph.roots.map { $0.id + offset }
                nodes += entry.graph.nodes.map { node in
                    ResolutionGraph.Node(
                        id: node.id + offset,
                        name: node.name,
                        requestedType: node.requestedType,
                        resolvedType: node.resolvedType,
                        lifetime: node.lifetime,
                        container: node.container,
                        implementer: node.implementer,
                        childIDs: node.childIDs.map { $0 + offset }
                    )
                }
            }
            return ResolutionGraph(nodes: nodes, roots: roots)
        }

        /// Each failure on a line of its own, then the whole graph.
        public var description: String {
            let failed = failures
            var lines = [
                failed.isEmpty
                    ? "All \(entries.count) resolves succeeded."
                    : "\(failed.count) of \(entries.count) resolves failed:"
            ]
            lines += failed.map { "✗ \($0.name): \(String(describing: $0.error!))" }
            lines.append(graph.renderText())
            return lines.joined(separator: "\n")
        }

        /// Runs each resolve in a trace of its own and records how it went.
        static func run<C>(_ container: C, _ resolves: [(C) throws -> Void]) -> Report {
            Report(
                entries: resolves.enumerated().map { index, resolve in
                    let (outcome, graph) = Diagnostics.trace { () -> Result<Void, any Error> in
                        Result { try resolve(container) }
                    }
                    return Entry(index: index, outcome: outcome, graph: graph)
                }
            )
        }

        /// Runs each asynchronous resolve in a trace of its own and records how it went.
        static func run<C>(
            _ container: C,
            isolation: isolated (any Actor)?,
            _ resolves: [(C) async throws -> Void]
        ) async -> Report {
            var entries: [Entry] = []
            for (index, resolve) in resolves.enumerated() {
                let (outcome, graph) = await Diagnostics.trace(isolation: isolation) {
                    () async -> Result<Void, any Error> in
                    do {
                        return .success(try await resolve(container))
                    } catch {
                        return .failure(error)
                    }
                }
                entries.append(Entry(index: index, outcome: outcome, graph: graph))
            }
            return Report(entries: entries)
        }
    }
}

extension Diagnostics.Report.Entry {
    /// The entry of the resolve at `index`, named for the outermost resolve it performed.
    init(index: Int, outcome: Result<Void, any Error>, graph: Diagnostics.ResolutionGraph) {
        self.index = index
        name = graph.roots.first?.name ?? "#\(index)"
        if case .failure(let error) = outcome { self.error = error } else { self.error = nil }
        self.graph = graph
    }
}

extension Diagnostics {
    /// Resolves each listed dependency of `container` and reports every failure, with the
    /// resolution graph of them all: a test that proves a container can build what it declares.
    ///
    /// Swift cannot enumerate a protocol's requirements at run time, so the container cannot
    /// discover its own resolves; list them once — next to the protocol, so that a new resolve is
    /// added in the same change — and validate the list:
    ///
    /// ```swift
    /// extension GreetingDependency {
    ///     static var everyResolve: [(Self) throws -> Void] {
    ///         [{ _ = $0.resolveClock() }, { _ = $0.resolveGreeter() }]
    ///     }
    /// }
    ///
    /// @Test func productionContainerResolvesEverything() {
    ///     let container = CoreGreetingDependency()
    ///     let report = Diagnostics.validate(container, CoreGreetingDependency.everyResolve)
    ///     #expect(report.succeeded, "\(report)")
    /// }
    /// ```
    ///
    /// Every resolve runs, even after one fails; each is traced, and the report's
    /// ``Report/graph`` draws them all. A resolve that throws (a tagged registry's
    /// missing registration or cycle, a throwing resolve) is reported as a failure. A cycle
    /// through resolves that cannot throw has no value to return and cannot be reported: with
    /// cycle checking on (the default in debug builds, see ``checksCycles``) it stops the
    /// process with the chain named, at the first resolve that reaches it.
    ///
    /// Resolves that take a payload are not listed: validate their factories instead
    /// (`{ _ = $0.resolveCardFactory().dependency }`).
    /// - Parameters:
    ///   - container: The container to validate.
    ///   - resolves: Each resolve to try, as a closure that receives the container.
    /// - Returns: What each resolve did and the graph of them all.
    public static func validate<C: DependencyContainer>(
        _ container: C,
        _ resolves: [(C) throws -> Void]
    ) -> Report {
        Report.run(container, resolves)
    }

    /// Resolves each listed asynchronous dependency of `container` and reports every failure.
    ///
    /// The asynchronous form of ``validate(_:_:)``; the resolves run one
    /// after the other.
    /// - Parameters:
    ///   - container: The container to validate.
    ///   - isolation: The caller's isolation, inherited by the resolves.
    ///   - resolves: Each resolve to try.
    /// - Returns: What each resolve did and the graph of them all.
    public static func validate<C: DependencyContainer>(
        _ container: C,
        isolation: isolated (any Actor)? = #isolation,
        _ resolves: [(C) async throws -> Void]
    ) async -> Report {
        await Report.run(container, isolation: isolation, resolves)
    }
}
