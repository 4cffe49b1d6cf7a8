import Testing

@testable import DependencyKit

/// The three renderings of a traced graph, compared with exact expected text.
struct DiagnosticsRenderingTests {
    private func cafeGraph() -> Diagnostics.ResolutionGraph {
        Diagnostics.trace { Kitchen().resolveCafe() }.graph
    }

    @Test func textShowsOneLinePerResolutionAsATree() {
        #expect(
            cafeGraph().renderText() == """
                resolveCafe() → Cafe [fresh, Kitchen]
                ├─ resolveBarista() → HumanBarista as Barista [fresh, Kitchen]
                │  └─ resolveGrinder() → Grinder [shared, Kitchen]
                └─ resolveRoaster() → Roaster [fresh, Kitchen]
                   └─ resolveGrinder() → Grinder [shared, Kitchen]
                """
        )
    }

    @Test func descriptionIsTheText() {
        let graph = cafeGraph()
        #expect(graph.description == graph.renderText())
    }

    @Test func dotDrawsEachResolutionOnceAndFillsSharedInstances() {
        #expect(
            cafeGraph().renderDOT() == """
                digraph "Dependencies" {
                    rankdir=TB;
                    node [shape=box, style=rounded, fontname="Helvetica"];
                    n0 [label="Cafe\\nresolveCafe()\\nfresh · Kitchen"];
                    n1 [label="HumanBarista\\nresolveBarista() as Barista\\nfresh · Kitchen"];
                    n2 [label="Grinder\\nresolveGrinder()\\nshared · Kitchen", style="rounded,filled", fillcolor="#e8f0fe"];
                    n3 [label="Roaster\\nresolveRoaster()\\nfresh · Kitchen"];
                    n0 -> n1;
                    n1 -> n2;
                    n0 -> n3;
                    n3 -> n2;
                }
                """
        )
    }

    @Test func mermaidDrawsTheSameGraph() {
        #expect(
            cafeGraph().renderMermaid() == """
                flowchart TD
                    n0["Cafe<br/>resolveCafe()<br/>fresh · Kitchen"]
                    n1["HumanBarista<br/>resolveBarista() as Barista<br/>fresh · Kitchen"]
                    n2["Grinder<br/>resolveGrinder()<br/>shared · Kitchen"]
                    n3["Roaster<br/>resolveRoaster()<br/>fresh · Kitchen"]
                    n0 --> n1
                    n1 --> n2
                    n0 --> n3
                    n3 --> n2
                    classDef shared fill:#e8f0fe
                    class n2 shared
                """
        )
    }

    @Test func renderingsAreDeterministic() {
        let first = cafeGraph()
        let second = cafeGraph()
        #expect(first == second)
        #expect(first.renderDOT(name: "Cafe") == second.renderDOT(name: "Cafe"))
        #expect(first.renderMermaid() == second.renderMermaid())
    }

    @Test func dotEscapesQuotesBackslashesAndNewlines() {
        let graph = Diagnostics.trace { Oddities().resolveOddity() }.graph
        #expect(
            graph.renderDOT(name: "a \"quoted\" name") == """
                digraph "a \\"quoted\\" name" {
                    rankdir=TB;
                    node [shape=box, style=rounded, fontname="Helvetica"];
                    n0 [label="Array<Int>\\nmake \\"special\\" <T> #1 & \\\\ done\\\\n\\nfresh · Oddities"];
                }
                """
        )
    }

    @Test func mermaidEscapesMarkupCharacters() {
        let graph = Diagnostics.trace { Oddities().resolveOddity() }.graph
        #expect(
            graph.renderMermaid() == """
                flowchart TD
                    n0["Array#lt;Int#gt;<br/>make #quot;special#quot; #lt;T#gt; #35;1 #amp; \\ done\\n<br/>fresh · Oddities"]
                """
        )
    }

    @Test func textOfAnEmptyTraceIsEmpty() {
        let graph = Diagnostics.trace { 42 }.graph
        #expect(graph.isEmpty)
        #expect(graph.renderText() == "")
        #expect(graph.renderMermaid() == "flowchart TD")
    }
}

/// A resolve whose name and type need escaping in every format.
private final class Oddities: DependencyContainer, @unchecked Sendable {
    func resolveOddity() -> [Int] {
        fresh(name: "make \"special\" <T> #1 & \\ done\\n") { [1, 2] }
    }
}
