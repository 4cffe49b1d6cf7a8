import AppCore
import Foundation
import Hummingbird
import UsersAPI

/// Runs `body` against a fresh Users API server — SQLite, with a database of its own unless
/// `container` says otherwise — and always stops it afterwards.
func withUsersServer<R>(
    container: any ServerDependency = PrivateDatabaseServerDependency(),
    host: String = "127.0.0.1",
    limits: UsersServer.Limits = UsersServer.Limits(),
    wiring: UsersRoutes.Wiring = .container,
    configureRouter: (Router<BasicRequestContext>) -> Void = { _ in },
    _ body: (UsersServer) async throws -> R
) async throws -> R {
    let server = try await UsersServer.start(
        container: container, host: host, limits: limits, wiring: wiring, configureRouter: configureRouter)
    do {
        let result = try await body(server)
        try await server.stop()
        return result
    } catch {
        try await server.stop()
        throw error
    }
}

/// Runs `body` against a server that misbehaves as asked, and always stops it afterwards.
func withMisbehavingServer<R>(
    _ misbehaviour: Misbehaviour,
    _ body: (UsersServer) async throws -> R
) async throws -> R {
    let server = try await misbehaviour.startServer()
    do {
        let result = try await body(server)
        try await server.stop()
        return result
    } catch {
        try await server.stop()
        throw error
    }
}

/// A user known to be in the cache before a failing request.
let cachedUser = User(id: "cached-1", name: "Cached Person", email: "cached@example.com")

/// Seeds the cache of `container`, then returns the file's bytes to compare with afterwards.
func seedCache(_ container: TestAppDependency) async throws -> Data? {
    let cache = container.resolveUsersCache()
    try await cache.save(current: cachedUser)
    try await cache.save(all: [cachedUser])
    return container.cacheFileBytes()
}

/// Runs a `fetchCurrent` that must fail and returns its error.
func fetchCurrentFailure(_ container: TestAppDependency) async -> UsersError? {
    do {
        _ = try await container.resolveUsersWorker().fetchCurrent(token: Secret("some-token"))
        return nil
    } catch {
        return error
    }
}

/// Runs a `fetchAll` that must fail and returns its error.
func fetchAllFailure(_ container: TestAppDependency) async -> UsersError? {
    do {
        _ = try await container.resolveUsersWorker().fetchAll(token: Secret("some-token"))
        return nil
    } catch {
        return error
    }
}

/// How starting a server with `container` fails, or `nil` if it starts.
func startupFailure(_ container: any ServerDependency) async -> UsersServerError? {
    do {
        let server = try await UsersServer.start(container: container)
        try await server.stop()
        return nil
    } catch let error as UsersServerError {
        return error
    } catch {
        return .didNotStart
    }
}
