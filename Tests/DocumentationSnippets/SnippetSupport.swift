import AppCore
import DependencyKit
import Foundation

// Test doubles shared by the samples. The articles mention them but do not show them.

// MARK: The weather domain (NeutralDomain.swift), used by the engine's articles

/// A network client with no network: every request fails as if the device were offline.
struct OfflineNetworkClient: NetworkClient {
    func get(_ path: String) async throws(NetworkError) -> Data { throw .offline }
}

/// A network client that answers from canned JSON and remembers the paths it was asked for.
actor CannedNetworkClient: NetworkClient {
    private static let responses: [String: String] = [
        "/forecast/Lisbon": #"{"city":"Lisbon","celsius":21}"#,
        "/forecast/Oslo": #"{"city":"Oslo","celsius":-3}"#,
    ]

    private(set) var paths: [String] = []

    func get(_ path: String) async throws(NetworkError) -> Data {
        paths.append(path)
        guard let json = Self.responses[path] else { throw .status(404) }
        return Data(json.utf8)
    }
}

// MARK: AppCore, used by the samples of AppCore's own articles and of Performance.md

/// AppCore's container with no network and a throwaway cache directory.
final class OfflineDependency: CoreDependency, @unchecked Sendable {
    override func resolveHTTPService() -> any HTTPServiceType {
        fresh { OfflineHTTPService() }
    }
    override func resolveUsersCacheDirectory() -> URL {
        fresh { FileManager.default.temporaryDirectory.appendingPathComponent("Offline") }
    }
}

/// A users cache that lives in memory, so samples never touch the file system.
actor InMemoryUsersCache: UsersCacheStore {
    private var current: User?
    private var all: [User]?

    func loadCurrent() async -> User? { current }
    func loadAll() async -> [User]? { all }
    func save(current: User) async throws(UsersError) { self.current = current }
    func save(all: [User]) async throws(UsersError) { self.all = all }
    func clear() async throws(UsersError) {
        current = nil
        all = nil
    }
}

/// A users worker that knows nobody, for tests that only need a value of the type.
struct UsersWorkerDouble: UsersWorkerType {
    func fetchCurrent(token: Secret) async throws(UsersError) -> User { throw .notAuthenticated }
    func cachedCurrent() async -> User? { nil }
    func fetchAll(token: Secret) async throws(UsersError) -> [User] { [] }
    func cachedAll() async -> [User]? { nil }
    func clearCache() async throws(UsersError) {}
}
