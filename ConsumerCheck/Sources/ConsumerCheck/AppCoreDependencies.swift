import AppCore
import Foundation

// AppCore, the package's reference core, under default MainActor isolation: subclasses of its
// container in another module say `nonisolated`, and a main-actor view model reads it through
// HasDependencies (UsersListViewModel.swift).

/// AppCore's container over canned answers and an in-memory cache.
nonisolated final class OnlineAppCoreDependency: CoreDependency, @unchecked Sendable {
    let cache = InMemoryUsersCache()

    override func resolveHTTPService() -> any HTTPServiceType { fresh { CannedHTTPService() } }
    override func resolveUsersCache() -> any UsersCacheStore { fresh { cache } }
    override func resolveUsersCacheDirectory() -> URL {
        fresh { FileManager.default.temporaryDirectory.appendingPathComponent("ConsumerCheck", isDirectory: true) }
    }
}

/// The smallest subclass of AppCore's container in a main-actor module.
nonisolated final class CacheDirectoryDependency: CoreDependency, @unchecked Sendable {
    override func resolveUsersCacheDirectory() -> URL {
        live { FileManager.default.temporaryDirectory.appendingPathComponent("MyApp", isDirectory: true) }
    }
}
