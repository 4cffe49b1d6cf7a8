import Dispatch
import Testing

@testable import DependencyKit

struct ScopingTests {
    @Test func syncScopeOverridesOnlyInsideTheOperation() {
        #expect(toyInjector.scopedContainer() == nil)
        let inside = withDependencies(ToyCore(marker: 11)) { currentMarker() }
        #expect(inside == 11)
        #expect(toyInjector.scopedContainer() == nil)
    }

    @Test func asyncScopeOverridesAcrossSuspensionPoints() async {
        let marker = await withDependencies(ToyCore(marker: 12)) { () async -> Int in
            await Task.yield()
            return currentMarker()
        }
        #expect(marker == 12)
    }

    @Test func innermostScopeWins() {
        withDependencies(ToyCore(marker: 1)) {
            #expect(currentMarker() == 1)
            withDependencies(ToyCore(marker: 2)) {
                #expect(currentMarker() == 2)
            }
            #expect(currentMarker() == 1)
        }
    }

    @Test func scopesOfTwoInjectorsNest() {
        withDependencies(ToyCore(marker: 5)) {
            withDependencies(OtherCore(name: "inner")) {
                #expect(currentMarker() == 5)
                #expect(otherInjector.dependencies.resolveName() == "inner")
            }
        }
    }

    @Test func aReadPassesTheNestedScopesOfAnotherInjectorInOneStep() {
        withDependencies(ToyCore(marker: 9)) {
            let toyFrame = ScopeFrame.current
            nestOtherScopes(1_000) {
                #expect(ScopeFrame.current?.outerOfOtherClass === toyFrame)
                #expect(currentMarker() == 9)
                #expect(otherInjector.dependencies.resolveName() == "1")
            }
        }
    }

    @Test func childTasksInheritTheScope() async {
        await withDependencies(ToyCore(marker: 21)) {
            async let fromAsyncLet = currentMarker()
            let fromGroup = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<8 { group.addTask { currentMarker() } }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }
            let fromTask = await Task { currentMarker() }.value
            let fromAsyncLetValue = await fromAsyncLet
            #expect(fromAsyncLetValue == 21)
            #expect(fromGroup == Array(repeating: 21, count: 8))
            #expect(fromTask == 21)
        }
    }

    @Test func detachedTaskSeesTheGlobalUnlessItReentersACapturedContext() async {
        let global = toyInjector.global.resolveMarker()
        await withDependencies(ToyCore(marker: 31)) {
            let context = DependencyContainer.Context.capture()
            #expect(context.isScoped)
            let uncaptured = await Task.detached { currentMarker() }.value
            let captured = await Task.detached { context.run { currentMarker() } }.value
            let capturedAsync = await Task.detached {
                await context.run { () async -> Int in
                    await Task.yield()
                    return currentMarker()
                }
            }.value
            #expect(uncaptured == global)
            #expect(captured == 31)
            #expect(capturedAsync == 31)
        }
    }

    @Test func dispatchQueueClosureReentersACapturedContext() async {
        let global = toyInjector.global.resolveMarker()
        let (uncaptured, captured) = await withDependencies(ToyCore(marker: 41)) {
            let context = DependencyContainer.Context.capture()
            return await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(returning: (currentMarker(), context.run { currentMarker() }))
                }
            }
        }
        #expect(uncaptured == global)
        #expect(captured == 41)
    }

    /// A container keeps itself converted for its storage after its first scope, held without a
    /// reference of its own: scoping it again, concretely or as an existential, in sync and async
    /// scopes, reuses the one binding, and the container is freed when the last scope ends.
    @Test func aContainerIsConvertedOnceAndFreedAfterItsScopes() async {
        weak var freed: OtherCore?
        do {
            let container = OtherCore(name: "bound")
            freed = container
            let existential: any OtherDependency = container
            #if !PublicAPIOnly
                #expect(container.sharedInstances.conversions.pointee == 0)
            #endif
            _ = withDependencies(existential) { otherInjector.dependencies.resolveName() }
            #if !PublicAPIOnly
                let binding = container.sharedInstances.conversions.pointee
                #expect(binding != 0)
            #endif
            for _ in 0..<3 {
                #expect(withDependencies(container) { otherInjector.dependencies.resolveName() } == "bound")
                #expect(withDependencies(existential) { otherInjector.dependencies.resolveName() } == "bound")
                let asynchronous = await withDependencies(existential) { () async in
                    otherInjector.dependencies.resolveName()
                }
                #expect(asynchronous == "bound")
            }
            #if !PublicAPIOnly
                #expect(container.sharedInstances.conversions.pointee == binding, "the container was converted again")
            #endif
            #expect(container.sharedInstances.footprint.cells == 0)
            let context = withDependencies(existential) { DependencyContainer.Context.capture() }
            #expect(context.run { otherInjector.dependencies.resolveName() } == "bound")
        }
        #expect(freed == nil, "a scoped container outlived its scopes and contexts")
    }

    /// Threads that scope one new container at the same moment race to keep its binding: one
    /// wins, the others use it and free their own, every scope sees the container, and the
    /// container is still freed afterwards (run under TSan in CI).
    @Test func threadsBindingOneNewContainerAtOnceAgree() {
        for round in 0..<50 {
            weak var freed: OtherCore?
            do {
                let container = OtherCore(name: "raced \(round)")
                freed = container
                let existential: any OtherDependency = container
                let seen = Locked([String]())
                DispatchQueue.concurrentPerform(iterations: 4) { _ in
                    let name = withDependencies(existential) { otherInjector.dependencies.resolveName() }
                    seen.withLock { $0.append(name) }
                }
                #expect(seen.withLock { $0 } == Array(repeating: "raced \(round)", count: 4))
                #if !PublicAPIOnly
                    #expect(container.sharedInstances.conversions.pointee != 0)
                #endif
            }
            #expect(freed == nil)
        }
    }

    /// `dependencies(as:)` casts a container to the refined protocol once, keeps the copy in the
    /// container, and reads that copy afterwards: through a scope and through the global box.
    @Test func aRefinedReadConvertsTheContainerOnce() {
        weak var freed: RefinedToyCore?
        do {
            let container = RefinedToyCore(marker: 5)
            freed = container
            let first = withDependencies(container) {
                toyInjector.dependencies(as: (any RefinedToy).self).resolveExtra()
            }
            #if !PublicAPIOnly
                let head = container.sharedInstances.conversions.pointee
                #expect(head != 0)
            #endif
            for _ in 0..<3 {
                let again = withDependencies(container) {
                    toyInjector.dependencies(as: (any RefinedToy).self).resolveExtra()
                }
                #expect(again == first)
            }
            #expect(first == 50)
            #if !PublicAPIOnly
                #expect(container.sharedInstances.conversions.pointee == head, "the container was converted again")
            #endif
        }
        #expect(freed == nil)

        let global = refinedToyInjector.dependencies(as: (any RefinedToy).self)
        let installed = unsafeDowncast(global as AnyObject, to: RefinedToyCore.self)
        #if !PublicAPIOnly
            let head = installed.sharedInstances.conversions.pointee
            #expect(head != 0)
        #endif
        #expect(refinedToyInjector.dependencies(as: (any RefinedToy).self).resolveExtra() == 90)
        #if !PublicAPIOnly
            #expect(installed.sharedInstances.conversions.pointee == head, "the global container was converted again")
        #endif
    }

    #if !PublicAPIOnly
        /// A conversion that does not hold the container as its first word is not kept, and the
        /// container's reference count is left as it was: it is freed once, when it goes away.
        @Test func aConversionThatBoxesTheContainerIsNotKept() {
            struct Boxed {
                let flag: Int
                let container: OtherCore
            }
            weak var freed: OtherCore?
            do {
                let container = OtherCore(name: "boxed")
                freed = container
                #expect(
                    ContainerConversions.add(
                        Boxed(flag: 7, container: container), of: container, to: container.sharedInstances.conversions)
                        == nil)
                #expect(container.sharedInstances.conversions.pointee == 0)
                #expect(
                    ContainerConversions.add(container, of: container, to: container.sharedInstances.conversions) != nil
                )
            }
            #expect(freed == nil)
        }
    #endif

    @Test func contextCapturedOutsideAnyScopeIsNotScoped() {
        #expect(!DependencyContainer.Context.capture().isScoped)
    }

    @Test func unstructuredTaskThatOutlivesTheScopeStillSeesIt() async {
        let storage = otherInjector
        // Other tests may scope OtherInjector concurrently, so compare the frames this test made.
        let container = OtherCore(name: "counted")
        let frame = ScopeFrame(owner: container, parent: nil)
        let during = storage.liveScopes.loadRelaxed()
        #expect(during >= 1)
        let escaped = ScopeFrame.bind(frame) {
            Task {
                try? await Task.sleep(nanoseconds: 1_000_000)
                return otherInjector.dependencies.resolveName()
            }
        }
        // The unstructured task outlives `withValue` and still sees its scope.
        let seen = await escaped.value
        #expect(seen == "counted")
    }
}

/// A refinement of the toy container protocol, read through `dependencies(as:)`.
protocol RefinedToy: ToyDependency {
    func resolveExtra() -> Int
}

final class RefinedToyCore: ToyCore, RefinedToy, @unchecked Sendable {
    func resolveExtra() -> Int { marker * 10 }
}

/// An injector of its own, whose global container only the refined-read test reads.
let refinedToyInjector = Injector<any ToyDependency> { RefinedToyCore(marker: 9) }

/// Runs `body` inside `depth` nested scopes of `OtherInjector`, the innermost named "1".
private func nestOtherScopes(_ depth: Int, _ body: () -> Void) {
    if depth == 0 { return body() }
    withDependencies(OtherCore(name: "\(depth)")) { nestOtherScopes(depth - 1, body) }
}
