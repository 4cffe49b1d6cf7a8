import Dispatch
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

/// A container of a size no other object here has (its padding): the allocator keeps freed blocks in
/// lists by size, so the next one made gets the address of one just freed, which a container with
/// the size of its own tables' objects does not reliably get.
private final class PaddedGraphCore: DependencyContainer, @unchecked Sendable {
    let drafts = Counter()
    let padding = SIMD64<UInt64>()

    func resolveDraft() -> Draft {
        perGraph {
            drafts.increment()
            return Draft()
        }
    }
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

    @Test func aContainerFreedInsideAGraphLeavesNoInstanceToANewContainerAtItsAddress() throws {
        let outer = PaddedGraphCore()
        // Inside one graph: a container resolves its per-graph draft and is freed; containers are
        // then made until one lands at the freed address (the allocator reuses it at once) and
        // that one resolves its own draft.
        let reused: (count: Int, sameDraft: Bool)? = outer.fresh {
            // Blocks of this size freed earlier are taken first, so the one freed next is the one reused.
            let drained = (0..<64).map { _ in PaddedGraphCore() }
            defer { withExtendedLifetime(drained) {} }
            var deadDraft: Draft?
            var deadAddress: ObjectIdentifier?
            do {
                let dead = PaddedGraphCore()
                deadAddress = ObjectIdentifier(dead)
                deadDraft = dead.resolveDraft()
            }
            var kept: [PaddedGraphCore] = []
            for _ in 0..<10_000 {
                let candidate = PaddedGraphCore()
                if ObjectIdentifier(candidate) == deadAddress {
                    let draft = candidate.resolveDraft()
                    return (candidate.drafts.count, draft === deadDraft)
                }
                kept.append(candidate)
            }
            return nil
        }
        let outcome = try #require(reused, "no container was allocated at the freed container's address")
        #expect(outcome.count == 1)
        #expect(!outcome.sameDraft)
    }

    @Test func anUnstructuredTaskStartedInAnAsyncGraphStartsNewGraphsOnceItEnds() async {
        let container = GraphCore()
        let (graphEnded, endGraph) = AsyncStream<Void>.makeStream()
        let (inGraph, task) = await container.fresh {
            let draft = await container.resolveAsyncDraft()
            let task = Task {
                for await _ in graphEnded { break }
                let asyncDrafts = (await container.resolveAsyncDraft(), await container.resolveAsyncDraft())
                let syncDrafts = (container.resolveDraft(), container.resolveDraft())
                return [asyncDrafts.0, asyncDrafts.1, syncDrafts.0, syncDrafts.1]
            }
            return (draft, task)
        }
        endGraph.yield()
        endGraph.finish()
        let later = await task.value
        #expect(later.allSatisfy { $0 !== inGraph })
        #expect(Set(later.map(ObjectIdentifier.init)).count == 4)
    }

    @Test func anEndedGraphReleasesItsInstancesWhileAnUnstructuredTaskStillHoldsIt() async {
        let container = GraphCore()
        let (graphEnded, endGraph) = AsyncStream<Void>.makeStream()
        weak var draft: Draft?
        let task = await container.fresh {
            draft = await container.resolveAsyncDraft()
            return Task { for await _ in graphEnded { break } }
        }
        #expect(draft == nil)
        endGraph.finish()
        await task.value
    }

    @Test func perGraphResolvesOnSeveralThreadsAtOnceEachGetTheirGraphsInstance() {
        let container = GraphCore()
        let mismatches = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<200 {
                let editor = container.resolveEditor()
                if editor.draft !== editor.preview.draft { mismatches.increment() }
            }
        }
        #expect(mismatches.count == 0)
        #expect(container.drafts.count == 1_600)
    }

    @Test func childTasksOfOneAsyncGraphShareItsInstanceUnderContention() async {
        let container = GraphCore()
        let drafts = await container.fresh {
            await withTaskGroup(of: Draft.self) { group in
                for _ in 0..<16 { group.addTask { await container.resolveAsyncDraft() } }
                return await group.reduce(into: [Draft]()) { $0.append($1) }
            }
        }
        #expect(Set(drafts.map(ObjectIdentifier.init)).count == 1)
        #expect(container.drafts.count == 1)
    }
}
