import Dispatch
import Testing

@testable import DependencyKit

/// Re-entering a creation that is under way is a cycle: it must stop the process with a message
/// naming what was being created, instead of hanging. Each case runs in a child process.
struct SharedInstanceCycleTests {
    @Test func reenteringASharedCreationOnTheSameThreadStopsAndNamesIt() async throws {
        let result = try await #require(
            processExitsWith: .failure,
            observing: [\.standardErrorContent]
        ) {
            _ = SelfReferencingContainer().resolveLoop()
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        // Whichever layer stops the cycle first (this cell, or the diagnostics hook around it),
        // the message must say it is a cycle and name the resolve.
        #expect(message.lowercased().contains("cycle"))
        #expect(message.contains("resolveLoop()"))
    }

    @Test func twoThreadsCreatingInstancesThatNeedEachOtherStopAndNameTheCircle() async throws {
        let result = try await #require(
            processExitsWith: .failure,
            observing: [\.standardErrorContent]
        ) {
            let container = CrossThreadContainer()
            DispatchQueue.global().async { _ = container.resolveB() }
            _ = container.resolveA()
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.lowercased().contains("cycle"))
        #expect(message.contains("resolveA()"))
        #expect(message.contains("resolveB()"))
    }

    @Test func reenteringAnAsyncSharedCreationFromAChildTaskStopsAndNamesIt() async throws {
        let result = try await #require(
            processExitsWith: .failure,
            observing: [\.standardErrorContent]
        ) {
            _ = await SelfReferencingContainer().resolveAsyncLoop()
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.lowercased().contains("cycle"))
        #expect(message.contains("resolveAsyncLoop()"))
    }

    @Test func reenteringAFactoryDependencyWhileItIsEvaluatedStopsAndNamesIt() async throws {
        let result = try await #require(
            processExitsWith: .failure,
            observing: [\.standardErrorContent]
        ) {
            let factory = SelfReferencingModule.Factory(dependency: selfReferencingFactory.withLock { $0 }!.dependency)
            selfReferencingFactory.withLock { $0 = factory }
            _ = factory.create()
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.lowercased().contains("cycle"))
        #expect(message.contains("Factory<SelfReferencingModule>"))
    }
}

private final class Loop: Sendable {
    let inner: Loop?
    init(inner: Loop?) { self.inner = inner }
}

private final class SelfReferencingContainer: DependencyContainer, @unchecked Sendable {
    func resolveLoop() -> Loop {
        shared { Loop(inner: resolveLoop()) }
    }

    func resolveAsyncLoop() async -> Loop {
        await shared {
            async let inner = resolveAsyncLoop()
            return Loop(inner: await inner)
        }
    }
}

/// A needs B and B needs A, and each creation waits until the other has started, so the two
/// threads are sure to end up waiting for each other.
private final class CrossThreadContainer: DependencyContainer, @unchecked Sendable {
    let startedA = DispatchSemaphore(value: 0)
    let startedB = DispatchSemaphore(value: 0)

    func resolveA() -> Loop {
        shared {
            startedA.signal()
            startedB.wait()
            return Loop(inner: resolveB())
        }
    }

    func resolveB() -> Loop {
        shared {
            startedB.signal()
            startedA.wait()
            return Loop(inner: resolveA())
        }
    }
}

// Not private: release builds name a private type with its file's discriminator.
struct SelfReferencingModule: FactoryModule {
    typealias Dependency = Int
    init(dependency: Int, payload: Void) {}
}

/// A factory whose dependency reads the factory's own dependency.
private let selfReferencingFactory = Locked<SelfReferencingModule.Factory?>(nil)
