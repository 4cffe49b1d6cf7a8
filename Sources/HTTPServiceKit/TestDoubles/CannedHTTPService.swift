import Foundation

/// A test double that answers from canned JSON, by path, and records every request it was sent.
///
/// Each path answers every method: `get` and `post` decode the path's JSON into the type the
/// caller asks for, and `send` succeeds. A path with no answer fails with `404`, and JSON that does
/// not decode into the asked type fails with ``HTTPError/malformedResponse(_:)``, as a real server's
/// would through ``HTTPService``:
///
/// ```swift
/// let service = CannedHTTPService(answers: ["/users/me": #"{"name":"Ada"}"#])
/// let me: [String: String] = try await service.get("/users/me", token: nil)
/// #expect(me == ["name": "Ada"])
/// #expect(await service.requests == [.init(method: "GET", path: "/users/me", hadToken: false)])
/// ```
public actor CannedHTTPService: HTTPServiceType {
    /// One request the service was sent.
    public struct Request: Sendable, Hashable {
        /// `GET` or `POST`.
        public let method: String
        /// The path it was sent to.
        public let path: String
        /// Whether it carried a bearer token.
        public let hadToken: Bool

        /// Creates a record of a request.
        /// - Parameters:
        ///   - method: `GET` or `POST`.
        ///   - path: The path it was sent to.
        ///   - hadToken: Whether it carried a bearer token.
        public init(method: String, path: String, hadToken: Bool) {
            self.method = method
            self.path = path
            self.hadToken = hadToken
        }
    }

    /// The JSON text each path answers with.
    public let answers: [String: String]

    /// Every request sent so far, in order.
    public private(set) var requests: [Request] = []

    /// Creates a service that answers each path in `answers` with its JSON text.
    /// - Parameter answers: JSON text by path, such as `["/users/me": #"{"name":"Ada"}"#]`.
    public init(answers: [String: String]) {
        self.answers = answers
    }

    /// Decodes the JSON canned for `path`.
    public func get<Response: Decodable & Sendable>(_ path: String, token: Secret?) async throws(HTTPError)
        -> Response
    {
        try answer("GET", path, token)
    }

    /// Decodes the JSON canned for `path`; the body is not read.
    public func post<Body: Encodable & Sendable, Response: Decodable & Sendable>(
        _ path: String,
        body: Body,
        token: Secret?
    ) async throws(HTTPError) -> Response {
        try answer("POST", path, token)
    }

    /// Succeeds when `path` has a canned answer; the body is not read.
    public func send<Body: Encodable & Sendable>(_ path: String, body: Body, token: Secret?) async throws(HTTPError) {
        requests.append(Request(method: "POST", path: path, hadToken: token != nil))
        guard answers[path] != nil else { throw .status(code: 404, body: "no canned answer for \(path)") }
    }

    private func answer<Response: Decodable>(_ method: String, _ path: String, _ token: Secret?) throws(HTTPError)
        -> Response
    {
        requests.append(Request(method: method, path: path, hadToken: token != nil))
        guard let json = answers[path] else { throw .status(code: 404, body: "no canned answer for \(path)") }
        do { return try JSONDecoder().decode(Response.self, from: Data(json.utf8)) } catch {
            throw .malformedResponse("the canned answer for \(path) is not a \(Response.self)")
        }
    }
}
