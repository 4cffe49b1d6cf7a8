/// A test double with no network: every request fails with one ``HTTPError``, and nothing is sent.
///
/// Use it where a test or a preview must run as a phone in airplane mode would:
///
/// ```swift
/// let service: any HTTPServiceType = OfflineHTTPService()
/// do {
///     let _: [String] = try await service.get("/users", token: nil)
/// } catch {
///     // error == OfflineHTTPService.defaultFailure
/// }
/// ```
public struct OfflineHTTPService: HTTPServiceType {
    /// The error every request fails with unless another is given: a refused connection.
    public static let defaultFailure = HTTPError.connectionFailed("offline, no request sent")

    /// The error every request fails with.
    public let failure: HTTPError

    /// Creates a service whose every request fails with `failure`.
    /// - Parameter failure: The error to throw; a refused connection unless you say otherwise.
    public init(failing failure: HTTPError = OfflineHTTPService.defaultFailure) {
        self.failure = failure
    }

    /// Throws ``failure``.
    public func get<Response: Decodable & Sendable>(_ path: String, token: Secret?) async throws(HTTPError)
        -> Response
    {
        throw failure
    }

    /// Throws ``failure``.
    public func post<Body: Encodable & Sendable, Response: Decodable & Sendable>(
        _ path: String,
        body: Body,
        token: Secret?
    ) async throws(HTTPError) -> Response {
        throw failure
    }

    /// Throws ``failure``.
    public func send<Body: Encodable & Sendable>(_ path: String, body: Body, token: Secret?) async throws(HTTPError) {
        throw failure
    }
}
