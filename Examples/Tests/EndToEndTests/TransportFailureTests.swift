import AppCore
import Foundation
import Testing
import UsersAPI

/// Each bad response gives a typed error and leaves a good cache byte for byte.
@Suite struct TransportFailureTests {
    @Test func serverErrorKeepsStatusAndMessage() async throws {
        try await withMisbehavingServer(.serverError("the database is on fire")) { server in
            let container = TestAppDependency(baseURL: server.baseURL)
            let before = try await seedCache(container)
            #expect(await fetchCurrentFailure(container) == .http(.status(code: 500, body: "the database is on fire")))
            #expect(await fetchAllFailure(container) == .http(.status(code: 500, body: "the database is on fire")))
            #expect(container.cacheFileBytes() == before)
            #expect(await container.resolveUsersWorker().cachedCurrent() == cachedUser)
        }
    }

    @Test func malformedJSONIsMalformedResponse() async throws {
        try await withMisbehavingServer(.malformedJSON) { server in
            let container = TestAppDependency(baseURL: server.baseURL)
            let before = try await seedCache(container)
            #expect(await fetchCurrentFailure(container) == .http(.malformedResponse("expected User")))
            #expect(await fetchAllFailure(container) == .http(.malformedResponse("expected Array<User>")))
            #expect(container.cacheFileBytes() == before)
        }
    }

    @Test func emptyBodyIsEmptyBody() async throws {
        try await withMisbehavingServer(.emptyBody) { server in
            let container = TestAppDependency(baseURL: server.baseURL)
            let before = try await seedCache(container)
            #expect(await fetchCurrentFailure(container) == .http(.emptyBody))
            #expect(container.cacheFileBytes() == before)
        }
    }

    @Test func refusedConnectionIsConnectionFailed() async throws {
        // Bind a port, then close it: nothing listens there any more.
        let closed = try await UsersServer.start(container: FastServerDependency())
        try await closed.stop()
        let container = TestAppDependency(baseURL: closed.baseURL)
        let before = try await seedCache(container)
        #expect(await fetchCurrentFailure(container) == .http(.connectionFailed("connection refused")))
        #expect(container.cacheFileBytes() == before)
    }

    @Test func slowServerTimesOut() async throws {
        try await withMisbehavingServer(.slow(.milliseconds(1500))) { server in
            let container = TestAppDependency(baseURL: server.baseURL, timeout: 0.5)
            let before = try await seedCache(container)
            #expect(await fetchCurrentFailure(container) == .http(.timedOut))
            #expect(container.cacheFileBytes() == before)
        }
    }

    @Test func bodyOverTheLimitIsRejectedByContentLength() async throws {
        try await withMisbehavingServer(.oversized(64 * 1024)) { server in
            let container = TestAppDependency(baseURL: server.baseURL, maximumResponseBytes: 1024)
            let before = try await seedCache(container)
            #expect(await fetchCurrentFailure(container) == .http(.responseTooLarge(limit: 1024)))
            #expect(container.cacheFileBytes() == before)
        }
    }

    @Test func chunkedBodyOverTheLimitIsCutOff() async throws {
        try await withMisbehavingServer(.oversizedChunked(256 * 1024)) { server in
            let container = TestAppDependency(baseURL: server.baseURL, maximumResponseBytes: 1024)
            let before = try await seedCache(container)
            #expect(await fetchAllFailure(container) == .http(.responseTooLarge(limit: 1024)))
            #expect(container.cacheFileBytes() == before)
        }
    }

    @Test func bodyWithinTheLimitStillDecodes() async throws {
        try await withMisbehavingServer(.slow(.zero)) { server in
            let container = TestAppDependency(baseURL: server.baseURL, maximumResponseBytes: 1024)
            let user = try await container.resolveUsersWorker().fetchCurrent(token: Secret("any"))
            #expect(user.email == "slow@example.com")
        }
    }
}
