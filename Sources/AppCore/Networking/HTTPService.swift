#if canImport(FoundationNetworking)
    internal import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// The one type in AppCore that touches the network: JSON over `URLSession`.
///
/// - Resolves paths against ``HTTPConfiguration/baseURL`` and sends the bearer token only to
///   that URL's host, never to a redirect target or an absolute URL elsewhere.
/// - Refuses plain `http://` to anything but loopback unless
///   ``HTTPConfiguration/allowsInsecureHTTP`` is set.
/// - Maps every failure to a typed ``HTTPError``; tokens and passwords never appear in one.
public struct HTTPService: HTTPServiceType {
    /// The configuration in use.
    public let configuration: HTTPConfiguration
    private let session: URLSession

    /// Creates a service.
    /// - Parameters:
    ///   - configuration: Where and how to talk to the server.
    ///   - session: The session to send requests with; `.shared` by default.
    public init(configuration: HTTPConfiguration, session: URLSession = .shared) {
        self.configuration = configuration
        self.session = session
    }

    public func get<Response: Decodable & Sendable>(
        _ path: String,
        token: Secret?
    ) async throws(HTTPError) -> Response {
        let request = try makeRequest(method: "GET", path: path, body: nil, token: token)
        return try decode(try await perform(request))
    }

    public func post<Body: Encodable & Sendable, Response: Decodable & Sendable>(
        _ path: String,
        body: Body,
        token: Secret?
    ) async throws(HTTPError) -> Response {
        let request = try makeRequest(method: "POST", path: path, body: try encode(body), token: token)
        return try decode(try await perform(request))
    }

    public func send<Body: Encodable & Sendable>(
        _ path: String,
        body: Body,
        token: Secret?
    ) async throws(HTTPError) {
        let request = try makeRequest(method: "POST", path: path, body: try encode(body), token: token)
        _ = try await perform(request)
    }

    // MARK: - Building requests

    func makeRequest(method: String, path: String, body: Data?, token: Secret?) throws(HTTPError) -> URLRequest {
        let url = try resolve(path)
        guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http" else {
            throw .invalidURL(url.absoluteString)
        }
        let host = url.host ?? ""
        if scheme == "http", !configuration.allowsInsecureHTTP, !Self.isLoopback(host) {
            throw .insecureTransport(host: host)
        }
        var request = URLRequest(url: url, timeoutInterval: configuration.timeout)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let token, host.lowercased() == configuration.baseURL.host?.lowercased() {
            request.setValue("Bearer \(token.revealed)", forHTTPHeaderField: "Authorization")
        }
        return request
    }

    func resolve(_ path: String) throws(HTTPError) -> URL {
        if let absolute = URL(string: path), absolute.scheme != nil {
            return absolute
        }
        var base = configuration.baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        let relative = path.hasPrefix("/") ? path : "/" + path
        guard let url = URL(string: base + relative) else { throw .invalidURL(path) }
        return url
    }

    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    // MARK: - Sending

    private func perform(_ request: URLRequest) async throws(HTTPError) -> Data {
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw Self.map(error)
        }
        return try validate(data: data, response: response)
    }

    func validate(data: Data, response: URLResponse) throws(HTTPError) -> Data {
        guard let http = response as? HTTPURLResponse else {
            throw .transport("not an HTTP response")
        }
        let limit = configuration.maximumResponseBytes
        if data.count > limit || http.expectedContentLength > Int64(limit) {
            throw .responseTooLarge(limit: limit)
        }
        guard (200..<300).contains(http.statusCode) else {
            throw .status(code: http.statusCode, body: Self.errorText(from: data))
        }
        return data
    }

    /// The server's error message, from `{"error": "..."}` when it sends one, else the raw text.
    static func errorText(from data: Data) -> String {
        struct ErrorBody: Decodable { let error: String }
        if let body = try? JSONDecoder().decode(ErrorBody.self, from: data) { return body.error }
        let text = String(decoding: data.prefix(512), as: UTF8.self)
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func map(_ error: any Error) -> HTTPError {
        guard let urlError = error as? URLError else { return .transport(String(describing: type(of: error))) }
        switch urlError.code {
        case .timedOut: return .timedOut
        case .cannotConnectToHost, .cannotFindHost, .networkConnectionLost, .notConnectedToInternet,
            .dnsLookupFailed:
            return .connectionFailed(urlError.localizedDescription)
        default: return .transport("URLError \(urlError.code.rawValue)")
        }
    }

    // MARK: - JSON

    private func encode<Body: Encodable>(_ body: Body) throws(HTTPError) -> Data {
        do { return try JSONEncoder().encode(body) } catch { throw .encodingFailed(String(describing: error)) }
    }

    func decode<Response: Decodable>(_ data: Data) throws(HTTPError) -> Response {
        if data.isEmpty { throw .emptyBody }
        do {
            return try JSONDecoder().decode(Response.self, from: data)
        } catch {
            throw .malformedResponse("expected \(Response.self)")
        }
    }
}
