/// What the app's screens call to get users: network first, cache as the fallback copy.
public protocol UsersWorkerType: Sendable {
    /// Fetches the current user from the network and caches it.
    func fetchCurrent(token: Secret) async throws(UsersError) -> User
    /// The current user from the cache, without the network.
    func cachedCurrent() async -> User?
    /// Fetches every user from the network and caches the list.
    func fetchAll(token: Secret) async throws(UsersError) -> [User]
    /// The list of users from the cache, without the network.
    func cachedAll() async -> [User]?
    /// Forgets the cached users.
    func clearCache() async throws(UsersError)
}

/// The default ``UsersWorkerType`` over a network store and a cache store.
///
/// A failed network fetch throws and leaves the cache as it was.
public struct UsersWorker: UsersWorkerType {
    private let store: any UsersStore
    private let cacheStore: any UsersCacheStore

    /// Creates the worker.
    /// - Parameters:
    ///   - store: Where users come from.
    ///   - cacheStore: Where the last fetched users are kept.
    public init(store: any UsersStore, cacheStore: any UsersCacheStore) {
        self.store = store
        self.cacheStore = cacheStore
    }

    public func fetchCurrent(token: Secret) async throws(UsersError) -> User {
        let user = try await store.fetchCurrent(token: token)
        try await cacheStore.save(current: user)
        return user
    }

    public func cachedCurrent() async -> User? { await cacheStore.loadCurrent() }

    public func fetchAll(token: Secret) async throws(UsersError) -> [User] {
        let users = try await store.fetchAll(token: token)
        try await cacheStore.save(all: users)
        return users
    }

    public func cachedAll() async -> [User]? { await cacheStore.loadAll() }

    public func clearCache() async throws(UsersError) { try await cacheStore.clear() }
}
