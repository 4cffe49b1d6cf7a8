import AppCore
import Foundation

// AppCore, the package's reference core, under default MainActor isolation: subclasses of its
// container in another module say `nonisolated`, and a main-actor view model reads it through
// HasDependencies (UsersListViewModel.swift).

/// AppCore's container over canned answers and an in-memory cache.
///
/// `@unchecked Sendable`: Swift makes every subclass of a container restate it. It is sound
/// because this class stores only `let`s of Sendable values (state lives in shared instances).
final class OnlineAppCoreDependency: CoreDependency, @unchecked Sendable {
    let cache = InMemoryUsersCache()

    override func resolveHTTPService() -> any HTTPServiceType { fresh { CannedHTTPService() } }
    override func resolveUsersCache() -> any UsersCacheStore { fresh { cache } }
    override func resolveUsersCacheDirectory() -> URL {
        fresh { FileManager.default.temporaryDirectory.appendingPathComponent("ConsumerCheck", isDirectory: true) }
    }
}

/// The smallest subclass of AppCore's container in a main-actor module.
///
/// `@unchecked Sendable`: Swift makes every subclass of a container restate it. It is sound
/// because this class stores only `let`s of Sendable values (state lives in shared instances).
final class CacheDirectoryDependency: CoreDependency, @unchecked Sendable {
    override func resolveUsersCacheDirectory() -> URL {
        live { FileManager.default.temporaryDirectory.appendingPathComponent("MyApp", isDirectory: true) }
    }
}
