import Dispatch
import Testing

@testable import DependencyKit

/// A synchronous scope lets reads on its thread skip the task-local lookup; these pin down that the
/// shortcut always serves the chain the task-local holds.
struct ScopeShortcutTests {
    @Test func contextRunInsideASyncScopeServesTheCapturedChain() async {
        let captured = withDependencies(ToyCore(marker: 61)) { DependencyContainer.Context.capture() }
        let unscoped = DependencyContainer.Context.capture()
        withDependencies(ToyCore(marker: 62)) {
            #expect(currentMarker() == 62)
            #expect(captured.run { currentMarker() } == 61)
            // A context captured outside any scope serves the global container, not the enclosing scope.
            #expect(unscoped.run { toyInjector.current === toyInjector.global })
            #expect(currentMarker() == 62)
        }
    }

    @Test func syncScopeNestedInAnAsyncScopeSeesBoth() async {
        await withDependencies(ToyCore(marker: 63)) {
            #expect(currentMarker() == 63)
            withDependencies(OtherCore(name: "sync")) {
                #expect(currentMarker() == 63)
                #expect(otherInjector.dependencies.resolveName() == "sync")
            }
            await Task.yield()
            #expect(currentMarker() == 63)
        }
    }

    @Test func throwingOutOfASyncScopeRestoresTheOuterOne() {
        struct Failure: Error {}
        withDependencies(ToyCore(marker: 64)) {
            #expect(throws: Failure.self) {
                try withDependencies(ToyCore(marker: 65)) {
                    #expect(currentMarker() == 65)
                    throw Failure()
                }
            }
            #expect(currentMarker() == 64)
        }
    }

    @Test func syncScopeOutsideAnyTaskUsesTheShortcut() async {
        let marker = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let inside = withDependencies(ToyCore(marker: 66)) { () -> Int? in
                    #if !PublicAPIOnly
                        #expect(ScopeFrame.shortcut != nil)
                    #endif
                    return toyInjector.scopedContainer()?.resolveMarker()
                }
                continuation.resume(returning: inside)
            }
        }
        #expect(marker == 66)
    }

    @Test func anotherTaskRunningOnTheSameThreadDoesNotSeeTheScope() async {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else { return }
        let global = toyInjector.global.resolveMarker()
        let seen = withDependencies(ToyCore(marker: 67)) { () -> Int in
            let seen = Locked(-1)
            // Starts a task that inherits nothing and runs on this thread until its first suspension,
            // while this scope's frame is still in the thread's slot.
            _ = Task.immediateDetached {
                #expect(ScopeFrame.shortcut == nil)
                let marker = currentMarker()
                seen.withLock { $0 = marker }
            }
            return seen.withLock { $0 }
        }
        #expect(seen == global)
    }
}
