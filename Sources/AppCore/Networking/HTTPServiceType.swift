/// JSON over HTTP, as the rest of AppCore sees it.
///
/// ``HTTPService`` is the only implementation that touches the network; tests substitute their
/// own conformance by overriding ``Dependency/resolveHTTPService()``.
public protocol HTTPServiceType: Sendable {
    /// Sends a `GET` to `path` and decodes the JSON response.
    /// - Parameters:
    ///   - path: A path relative to the base URL, such as `/users/me`.
    ///   - token: A bearer token to send, if any.
    /// - Returns: The decoded response.
    /// - Throws: ``HTTPError``.
    func get<Response: Decodable & Sendable>(_ path: String, token: Secret?) async throws(HTTPError) -> Response

    /// Sends a `POST` with a JSON body to `path` and decodes the JSON response.
    /// - Parameters:
    ///   - path: A path relative to the base URL.
    ///   - body: The value to encode as the JSON body.
    ///   - token: A bearer token to send, if any.
    /// - Returns: The decoded response.
    /// - Throws: ``HTTPError``.
    func post<Body: Encodable & Sendable, Response: Decodable & Sendable>(
        _ path: String,
        body: Body,
        token: Secret?
    ) async throws(HTTPError) -> Response

    /// Sends a `POST` with a JSON body to `path`, expecting no response body.
    /// - Parameters:
    ///   - path: A path relative to the base URL.
    ///   - body: The value to encode as the JSON body.
    ///   - token: A bearer token to send, if any.
    /// - Throws: ``HTTPError``.
    func send<Body: Encodable & Sendable>(_ path: String, body: Body, token: Secret?) async throws(HTTPError)
}

/// An empty JSON object, for requests with nothing to say.
public struct EmptyBody: Codable, Sendable, Hashable {
    /// Creates an empty body.
    public init() {}
}
