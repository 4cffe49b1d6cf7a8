public import HTTPServiceKit
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

    /// Fetches the current user from the store, then caches it.
    /// - Parameter token: The bearer token.
    /// - Returns: The user the token belongs to.
    /// - Throws: The store's error, with the cache untouched, or the cache's write error.
    public func fetchCurrent(token: Secret) async throws(UsersError) -> User {
        let user = try await store.fetchCurrent(token: token)
        try await cacheStore.save(current: user)
        return user
    }

    /// The current user from the cache store, or `nil` on a miss.
    public func cachedCurrent() async -> User? { await cacheStore.loadCurrent() }

    /// Fetches every user from the store, then caches the list.
    /// - Parameter token: The bearer token.
    /// - Returns: Every user.
    /// - Throws: The store's error, with the cache untouched, or the cache's write error.
    public func fetchAll(token: Secret) async throws(UsersError) -> [User] {
        let users = try await store.fetchAll(token: token)
        try await cacheStore.save(all: users)
        return users
    }

    /// The list of users from the cache store, or `nil` on a miss.
    public func cachedAll() async -> [User]? { await cacheStore.loadAll() }

    /// Empties the cache store.
    /// - Throws: The cache's write error.
    public func clearCache() async throws(UsersError) { try await cacheStore.clear() }
}
