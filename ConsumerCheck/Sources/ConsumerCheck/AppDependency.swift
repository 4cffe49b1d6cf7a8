import AppCore
import DependencyKit
import Foundation

// The app's container: AppCore's, plus a main-actor resolve and an async one. This module's
// default isolation is MainActor, so the container says `nonisolated`: its resolves must stay
// callable from any thread, exactly like the CoreDependency methods they sit beside.

// snippet: concurrency-app-protocol
nonisolated protocol AppDependencies: Dependency {
    @MainActor func resolveProfileViewModel() -> ProfileViewModel
    func resolveGreeting() async -> String
}
// end-snippet

// snippet: concurrency-app-subclass
nonisolated class AppDependency: CoreDependency, AppDependencies, @unchecked Sendable {
    override func resolveUsersCacheDirectory() -> URL {
        live { FileManager.default.temporaryDirectory.appendingPathComponent("ConsumerCheck", isDirectory: true) }
    }

    @MainActor func resolveProfileViewModel() -> ProfileViewModel {
        fresh { ProfileViewModel() }
    }

    func resolveGreeting() async -> String {
        await fresh {
            let cached = await resolveUsersCache().loadCurrent()
            return cached.map { "Welcome back, \($0.name)" } ?? "Welcome"
        }
    }
}
// end-snippet

// snippet: concurrency-shared-and-factory
extension AppDependency {
    /// A shared instance, from a nonisolated container in a main-actor module.
    func resolveSignInCounter() -> SignInCounter {
        shared { SignInCounter() }
    }

    /// A factory for a main-actor module; the resolve is main-actor isolated like the module.
    @MainActor func resolveProfileScreenFactory() -> ProfileScreen.Factory {
        fresh { .init(dependency: .init(usersWorker: self.resolveUsersWorker())) }
    }
}
// end-snippet

// snippet: concurrency-final-subclass
nonisolated final class OfflineAppDependency: AppDependency, @unchecked Sendable {
    override func resolveHTTPService() -> any HTTPServiceType { fresh { OfflineHTTPService() } }
    override func resolveUsersCacheDirectory() -> URL {
        fresh { FileManager.default.temporaryDirectory.appendingPathComponent("Offline", isDirectory: true) }
    }
}
// end-snippet

nonisolated final class OnlineAppDependency: AppDependency, @unchecked Sendable {
    let cache = InMemoryUsersCache()

    override func resolveHTTPService() -> any HTTPServiceType { fresh { CannedHTTPService() } }
    override func resolveUsersCache() -> any UsersCacheStore { fresh { cache } }
}

nonisolated protocol HasAppDependencies {}

nonisolated extension HasAppDependencies {
    var dependencies: any AppDependencies {
        DependencyInjector.dependencies(as: (any AppDependencies).self)
    }
}
