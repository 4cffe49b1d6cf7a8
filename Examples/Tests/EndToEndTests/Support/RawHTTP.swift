import Foundation
import UsersAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Plain requests to a server, for what AppCore's client deliberately never sends.
enum RawHTTP {
    struct Reply: Sendable {
        let status: Int
        let body: Data
        let headers: [String: String]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 60
        return URLSession(configuration: configuration)
    }()

    static func send(
        _ method: String,
        _ path: String,
        to server: UsersServer,
        json: [String: String]? = nil,
        token: String? = nil,
        requestID: String? = nil
    ) async throws -> Reply {
        var request = URLRequest(url: URL(string: server.baseURL.absoluteString + path)!)
        request.httpMethod = method
        if let json {
            request.httpBody = try JSONEncoder().encode(json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let requestID { request.setValue(requestID, forHTTPHeaderField: "X-Request-ID") }
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            headers[String(describing: key).lowercased()] = String(describing: value)
        }
        return Reply(status: http.statusCode, body: data, headers: headers)
    }

    /// Signs up and returns the token.
    static func signUp(_ email: String, name: String = "Test User", to server: UsersServer) async throws -> String {
        let reply = try await send(
            "POST",
            "/auth/signup",
            to: server,
            json: ["name": name, "email": email, "password": "password-1"]
        )
        guard reply.status == 201,
            let object = try JSONSerialization.jsonObject(with: reply.body) as? [String: Any],
            let token = object["token"] as? String
        else { throw Unexpected(reply: reply.text) }
        return token
    }

    struct Unexpected: Error { let reply: String }
}
