import AppCore
import DependencyKit
import Foundation

/// An ``HTTPServiceType`` that answers from canned JSON and records what it was asked.
final class StubHTTPService: HTTPServiceType {
    struct Call: Equatable, Sendable {
        let method: String
        let path: String
        let hadToken: Bool
    }

    /// Identifies this stub in assertions about which service a worker received.
    let marker: String
    private let responses: [String: Data]
    private let recorded = Locked([Call]())

    init(marker: String, responses: [String: String] = StubHTTPService.defaultResponses) {
        self.marker = marker
        self.responses = responses.mapValues { Data($0.utf8) }
    }

    var calls: [Call] { recorded.withLock { $0 } }

    static let user = #"{"id":"u1","name":"Ada","email":"ada@example.com"}"#
    static let defaultResponses: [String: String] = [
        "/auth/login": #"{"token":"tok-1","user":\#(user)}"#,
        "/auth/signup": #"{"token":"tok-2","user":\#(user)}"#,
        "/users/me": user,
        "/users": "[\(user)]",
    ]

    func get<Response: Decodable & Sendable>(_ path: String, token: Secret?) async throws(HTTPError) -> Response {
        try answer("GET", path, token)
    }

    func post<Body: Encodable & Sendable, Response: Decodable & Sendable>(
        _ path: String,
        body: Body,
        token: Secret?
    ) async throws(HTTPError) -> Response {
        try answer("POST", path, token)
    }

    func send<Body: Encodable & Sendable>(_ path: String, body: Body, token: Secret?) async throws(HTTPError) {
        recorded.withLock { $0.append(Call(method: "POST", path: path, hadToken: token != nil)) }
    }

    private func answer<Response: Decodable>(_ method: String, _ path: String, _ token: Secret?) throws(HTTPError)
        -> Response
    {
        recorded.withLock { $0.append(Call(method: method, path: path, hadToken: token != nil)) }
        guard let data = responses[path] else { throw .status(code: 404, body: "no stub for \(path)") }
        do { return try JSONDecoder().decode(Response.self, from: data) } catch {
            throw .malformedResponse("stub for \(path)")
        }
    }
}

/// A cache that lives in memory, for tests that must not touch the file system.
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

/// A unique scratch directory per call, for file-backed caches.
func scratchDirectory() -> URL {
    FileManager.default.temporaryDirectory
        .appendingPathComponent("AppCoreTests-\(UUID().uuidString)", isDirectory: true)
}
