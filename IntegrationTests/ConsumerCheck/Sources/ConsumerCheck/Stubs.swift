import AppCore
import ForecastKit
import Foundation

/// Fails every request as if the connection were refused.
nonisolated struct OfflineHTTPService: HTTPServiceType {
    func get<Response: Decodable & Sendable>(_ path: String, token: Secret?) async throws(HTTPError) -> Response {
        throw .connectionFailed("offline")
    }

    func post<Body: Encodable & Sendable, Response: Decodable & Sendable>(
        _ path: String,
        body: Body,
        token: Secret?
    ) async throws(HTTPError) -> Response {
        throw .connectionFailed("offline")
    }

    func send<Body: Encodable & Sendable>(_ path: String, body: Body, token: Secret?) async throws(HTTPError) {
        throw .connectionFailed("offline")
    }
}

/// Answers `GET /users/me` and `GET /users` with Ada, and nothing else.
nonisolated struct CannedHTTPService: HTTPServiceType {
    static let ada = #"{"id":"u1","name":"Ada","email":"ada@example.com"}"#

    func get<Response: Decodable & Sendable>(_ path: String, token: Secret?) async throws(HTTPError) -> Response {
        let body: String
        switch path {
        case "/users/me": body = Self.ada
        case "/users": body = "[\(Self.ada)]"
        default: throw .status(code: 404, body: "")
        }
        do { return try JSONDecoder().decode(Response.self, from: Data(body.utf8)) } catch {
            throw .malformedResponse("canned user")
        }
    }

    func post<Body: Encodable & Sendable, Response: Decodable & Sendable>(
        _ path: String,
        body: Body,
        token: Secret?
    ) async throws(HTTPError) -> Response {
        throw .status(code: 404, body: "")
    }

    func send<Body: Encodable & Sendable>(_ path: String, body: Body, token: Secret?) async throws(HTTPError) {
        throw .status(code: 404, body: "")
    }
}

/// A users cache in memory, so the check never touches the file system.
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

/// A thermometer that always reads the same temperature.
nonisolated struct FixedThermometer: Thermometer {
    let reading: Double

    func celsius() async -> Double { reading }
}
