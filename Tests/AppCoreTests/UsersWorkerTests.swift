import Foundation
import Testing

@testable import AppCore

/// A users store whose every fetch fails with the given error.
private struct FailingUsersStore: UsersStore {
    let error: UsersError
    func fetchCurrent(token: Secret) async throws(UsersError) -> User { throw error }
    func fetchAll(token: Secret) async throws(UsersError) -> [User] { throw error }
}

@Suite struct UsersWorkerTests {
    private let ada = User(id: "u1", name: "Ada", email: "ada@example.com")

    @Test(arguments: [
        UsersError.notAuthenticated,
        .http(.timedOut),
        .http(.status(code: 500, body: "boom")),
        .http(.malformedResponse("expected User")),
        .http(.responseTooLarge(limit: 10)),
    ])
    func failedFetchNeverErasesAGoodFileCache(error: UsersError) async throws {
        let directory = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = UsersFileCacheStore(directory: directory)
        try await cache.save(current: ada)
        try await cache.save(all: [ada])
        let before = try Data(contentsOf: cache.fileURL)

        let worker = UsersWorker(store: FailingUsersStore(error: error), cacheStore: cache)
        await #expect(throws: error) { try await worker.fetchCurrent(token: Secret("t")) }
        await #expect(throws: error) { try await worker.fetchAll(token: Secret("t")) }

        #expect(try Data(contentsOf: cache.fileURL) == before)
        #expect(await worker.cachedCurrent() == ada)
        #expect(await worker.cachedAll() == [ada])
    }

    @Test func successfulFetchReplacesTheCache() async throws {
        let cache = InMemoryUsersCache()
        let worker = UsersWorker(store: UsersNetworkStore(httpService: StubHTTPService(marker: "w")), cacheStore: cache)
        let me = try await worker.fetchCurrent(token: Secret("t"))
        #expect(await worker.cachedCurrent() == me)
        let all = try await worker.fetchAll(token: Secret("t"))
        #expect(await worker.cachedAll() == all)
    }
}
