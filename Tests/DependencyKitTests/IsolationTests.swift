import DependencyKit
import Testing

// Resolves may be `@MainActor` or `async`; the compiler enforces both, nothing traps at run time.

@MainActor
final class CounterViewModel {
    private(set) var count = 0
    let step: Int
    init(step: Int) { self.step = step }
    func increment() { count += step }
}

struct RemoteSettings: Sendable, Equatable {
    let step: Int
}

protocol IsolatedDependency: DependencyContainer {
    func resolveSettings() async -> RemoteSettings
    @MainActor func resolveCounterViewModel() async -> CounterViewModel
}

extension IsolatedDependency {
    func resolveSettings() async -> RemoteSettings {
        await fresh {
            await Task.yield()  // stands in for a network or disk read
            return RemoteSettings(step: 1)
        }
    }

    @MainActor func resolveCounterViewModel() async -> CounterViewModel {
        CounterViewModel(step: await resolveSettings().step)
    }
}

final class IsolatedCore: DependencyContainer, IsolatedDependency, @unchecked Sendable {}

final class FastSettingsDependency: DependencyContainer, IsolatedDependency, @unchecked Sendable {
    func resolveSettings() async -> RemoteSettings { RemoteSettings(step: 5) }
}

let isolatedInjector = Injector<any IsolatedDependency> { IsolatedCore() }

struct IsolationTests {
    @Test @MainActor func mainActorResolveBuildsAMainActorViewModel() async {
        let model = await isolatedInjector.dependencies.resolveCounterViewModel()
        model.increment()
        #expect(model.count == 1)
    }

    @Test func asyncResolveRunsOffTheMainActorAndCascades() async {
        let settings = await isolatedInjector.dependencies.resolveSettings()
        #expect(settings == RemoteSettings(step: 1))
        let model = await withDependencies(FastSettingsDependency()) {
            await isolatedInjector.dependencies.resolveCounterViewModel()
        }
        await MainActor.run {
            model.increment()
            #expect(model.count == 5)
        }
    }
}
