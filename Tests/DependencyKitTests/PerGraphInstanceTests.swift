import Testing

@testable import DependencyKit

/// A screen whose two parts must see the same draft.
private final class Draft: Sendable {}

private struct Preview: Sendable {
    let draft: Draft
}

private struct Editor: Sendable {
    let draft: Draft
    let preview: Preview
}

private final class GraphCore: DependencyContainer, @unchecked Sendable {
    let drafts = Counter()

    func resolveDraft() -> Draft {
        perGraph {
            drafts.increment()
            return Draft()
        }
    }

    func resolvePreview() -> Preview { fresh { Preview(draft: resolveDraft()) } }
    func resolveEditor() -> Editor { fresh { Editor(draft: resolveDraft(), preview: resolvePreview()) } }

    func resolveAsyncDraft() async -> Draft {
        await perGraph { () async -> Draft in
            drafts.increment()
            return Draft()
        }
    }

    func resolveAsyncPreview() async -> Preview { await fresh { Preview(draft: await resolveAsyncDraft()) } }

    func resolveAsyncEditor() async -> Editor {
        await fresh {
            async let preview = resolveAsyncPreview()
            let draft = await resolveAsyncDraft()
            return Editor(draft: draft, preview: await preview)
        }
    }

    /// An asynchronous graph whose synchronous parts reach the per-graph instance.
    func resolveMixedEditor() async -> Editor {
        await fresh {
            let draft = resolveDraft()
            await Task.yield()
            return Editor(draft: draft, preview: resolvePreview())
        }
    }
}

struct PerGraphInstanceTests {
    @Test func oneTopLevelResolveSharesTheInstanceAcrossItsNestedResolves() {
        let container = GraphCore()
        let editor = container.resolveEditor()
        #expect(editor.draft === editor.preview.draft)
        #expect(container.drafts.count == 1)
    }

    @Test func theNextTopLevelResolveBuildsANewGraph() {
        let container = GraphCore()
        let first = container.resolveEditor()
        let second = container.resolveEditor()
        #expect(first.draft !== second.draft)
        #expect(container.resolveDraft() !== container.resolveDraft())
        #expect(container.drafts.count == 4)
    }

    @Test func asyncGraphsShareAcrossChildTasks() async {
        let container = GraphCore()
        let first = await container.resolveAsyncEditor()
        #expect(first.draft === first.preview.draft)
        let second = await container.resolveAsyncEditor()
        #expect(second.draft !== first.draft)
        #expect(container.drafts.count == 2)
    }

    @Test func synchronousResolvesInsideAnAsyncGraphJoinIt() async {
        let container = GraphCore()
        let editor = await container.resolveMixedEditor()
        #expect(editor.draft === editor.preview.draft)
        #expect(container.drafts.count == 1)
    }

    @Test func perGraphInstancesBelongToTheirContainer() {
        let one = GraphCore()
        let other = GraphCore()
        let pair = one.fresh { (one.resolveDraft(), other.resolveDraft(), one.resolveDraft()) }
        #expect(pair.0 === pair.2)
        #expect(pair.0 !== pair.1)
    }

    @Test func theGraphReleasesItsInstanceWhenTheTopLevelResolveReturns() {
        let container = GraphCore()
        weak var draft: Draft?
        do {
            let editor = container.resolveEditor()
            draft = editor.draft
        }
        #expect(draft == nil)
    }

    @Test func perGraphResolutionIsTracedAsPerGraph() {
        let container = GraphCore()
        let (_, graph) = Diagnostics.trace { container.resolveEditor() }
        #expect(graph.nodes.map(\.lifetime) == [.fresh, .perGraph, .fresh, .perGraph])
    }
}
