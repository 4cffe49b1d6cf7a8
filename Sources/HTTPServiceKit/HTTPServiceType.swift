/// JSON over HTTP, as the code that calls a server sees it: three methods, each generic over the
/// values it encodes and decodes, each throwing only ``HTTPError``.
///
/// ``HTTPService`` is the implementation that touches the network. ``CannedHTTPService`` (answers
/// from canned JSON, records requests) and ``OfflineHTTPService`` (every request fails) are test
/// doubles; give your own code an `any HTTPServiceType` and a test hands it one of them.
///
/// The requirements are generic: the caller picks the type, by annotation or by the parameter
/// it passes, and a conformance must work for every `Decodable`/`Encodable` type, so it decodes
/// and encodes with `JSONDecoder`/`JSONEncoder` rather than answering with a fixed value. They use
/// typed throws, `throws(HTTPError)`: a conformance throws nothing else, and a caller's `catch`
/// sees an ``HTTPError`` without a cast.
///
/// ```swift
/// struct Profile: Codable, Sendable { let name: String }
///
/// func loadProfile(from service: any HTTPServiceType, token: Secret) async throws(HTTPError) -> Profile {
///     try await service.get("/profile", token: token)  // `Response` is `Profile`
/// }
/// ```
///
/// A conformance that is not an actor must be `Sendable`; one that records what it was asked, as
/// ``CannedHTTPService`` does, is an actor.
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
