#if canImport(FoundationNetworking)
    internal import Foundation
    internal import FoundationNetworking
#else
    internal import Foundation
#endif

/// JSON over `URLSession`: the one type in this module that touches the network.
///
/// - Resolves paths against ``HTTPConfiguration/baseURL`` and sends the bearer token only to
///   that URL's origin (scheme, host and port) — never to an absolute URL elsewhere, and never
///   along a redirect that leaves the origin.
/// - Refuses plain `http://` to anything but loopback unless
///   ``HTTPConfiguration/allowsInsecureHTTP`` is set, for requests and for redirects. Loopback is
///   `localhost` or `127.x.y.z` spelled plainly; a spelling a resolver might read otherwise
///   (`localhost.`, `127.0.0.1.`, `127.08.0.1`) is not loopback. On Linux an IPv6 literal host
///   such as `[::1]` fails with ``HTTPError/unsupportedHost(_:)``: the platform cannot load it.
/// - Enforces ``HTTPConfiguration/maximumResponseBytes`` on the *decoded* body while it streams
///   in: a `Content-Length` over the limit is rejected before the body is read, and a body that
///   grows past it is cancelled. Requests ask for `Accept-Encoding: identity`; a compressed body
///   sent anyway counts by its decoded size, and memory stays bounded even for a gzip bomb.
///   Where the body stops depends on the platform's URL loading system. On Apple platforms
///   `URLSession` hands over the decoded body as it inflates, so the limit stops a bomb within a
///   few chunks. On Linux, FoundationNetworking inflates inside libcurl's read pass and
///   cancelling waits for that pass: 2 MiB of gzip that inflates to 2 GiB ends in
///   ``HTTPError/responseTooLarge(limit:)`` at a 1 MiB limit only after about 18 s, most of it
///   CPU. A Linux app that talks to servers it does not trust should resolve a transport that
///   inflates under the limit instead, such as the repository's `Examples` package's
///   `AsyncHTTPService` (AsyncHTTPClient), another ``HTTPServiceType``.
/// - Refuses a timeout outside ``HTTPConfiguration/timeoutRange`` with
///   ``HTTPError/invalidConfiguration(_:)`` before anything is sent.
/// - Ends every call exactly once, whatever the transport reports: when the task making the call
///   is cancelled, the call throws ``HTTPError/cancelled`` at once (a task cancelled before the
///   call sends nothing); when ``HTTPConfiguration/timeout`` passes, it throws
///   ``HTTPError/timedOut`` at the deadline. Neither waits for the transport to confirm; the
///   request is stopped afterwards, and anything it reports later is ignored.
/// - Maps every failure to a typed ``HTTPError``. Tokens and passwords never appear in one: a
///   server that echoes them in an error body has them replaced by `<redacted>`, in every form
///   the client sent them (as is, JSON-escaped, percent-encoded), before the body is shortened.
///
/// ```swift
/// let service = HTTPService(configuration: HTTPConfiguration(baseURL: url))
/// let profile: Profile = try await service.get("/profile", token: Secret(bearerToken))
/// ```
public struct HTTPService: HTTPServiceType {
    /// The configuration in use.
    public let configuration: HTTPConfiguration

    /// Creates a service.
    ///
    /// Every service shares one ephemeral `URLSession` (no cookies, no disk cache), so creating
    /// a service is cheap and a fresh one per resolve is fine: it stores its configuration, and
    /// nothing else, in the caller's own code.
    /// - Parameter configuration: Where and how to talk to the server.
    @inlinable
    public init(configuration: HTTPConfiguration) {
        self.configuration = configuration
    }

    /// The process's one loader and session.
    private var loader: ResponseLoader { .shared }

    /// Sends a `GET` to `path` and decodes the JSON response.
    /// - Parameters:
    ///   - path: A path relative to the base URL, such as `/users/me`.
    ///   - token: A bearer token, sent only to the base URL's origin.
    /// - Returns: The decoded response.
    /// - Throws: ``HTTPError``.
    public func get<Response: Decodable & Sendable>(
        _ path: String,
        token: Secret?
    ) async throws(HTTPError) -> Response {
        let request = try makeRequest(method: "GET", path: path, body: nil, token: token)
        return try decode(try await perform(request.request, secrets: request.secrets))
    }

    /// Sends a `POST` with a JSON body to `path` and decodes the JSON response.
    /// - Parameters:
    ///   - path: A path relative to the base URL.
    ///   - body: The value to encode as the JSON body.
    ///   - token: A bearer token, sent only to the base URL's origin.
    /// - Returns: The decoded response.
    /// - Throws: ``HTTPError``.
    public func post<Body: Encodable & Sendable, Response: Decodable & Sendable>(
        _ path: String,
        body: Body,
        token: Secret?
    ) async throws(HTTPError) -> Response {
        let request = try makeRequest(method: "POST", path: path, body: body, token: token)
        return try decode(try await perform(request.request, secrets: request.secrets))
    }

    /// Sends a `POST` with a JSON body to `path`, ignoring any response body.
    /// - Parameters:
    ///   - path: A path relative to the base URL.
    ///   - body: The value to encode as the JSON body.
    ///   - token: A bearer token, sent only to the base URL's origin.
    /// - Throws: ``HTTPError``.
    public func send<Body: Encodable & Sendable>(
        _ path: String,
        body: Body,
        token: Secret?
    ) async throws(HTTPError) {
        let request = try makeRequest(method: "POST", path: path, body: body, token: token)
        _ = try await perform(request.request, secrets: request.secrets)
    }

    // MARK: - Building requests

    /// A request ready to send, with every secret it carries (for redaction).
    struct PreparedRequest {
        var request: URLRequest
        var secrets: [String]
    }

    func makeRequest(method: String, path: String, body: (any Encodable)?, token: Secret?) throws(HTTPError)
        -> PreparedRequest
    {
        try configuration.validate()
        let url = try resolve(path)
        guard let origin = HTTPOrigin(url) else { throw .invalidURL(Self.redactingCredentials(url)) }
        try Self.checkHostIsUsable(origin.host)
        if origin.scheme == "http", !configuration.allowsInsecureHTTP, !HTTPOrigin.isLoopback(origin.host) {
            throw .insecureTransport(host: origin.host)
        }
        var secrets: [String] = []
        var request = URLRequest(url: url, timeoutInterval: configuration.timeout)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        // The size limit is about decoded bytes; asking for none keeps an honest server's body
        // as large on the wire as in memory (see ResponseLoader for a server that ignores this).
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        if let body {
            let encoded = try Self.encode(body)
            request.httpBody = encoded.data
            secrets += encoded.secrets
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let token, origin == trustedOrigin {
            request.setValue("Bearer \(token.revealed)", forHTTPHeaderField: "Authorization")
            secrets.append(token.revealed)
        }
        return PreparedRequest(request: request, secrets: secrets)
    }

    /// The origin the bearer token may be sent to: the base URL's.
    var trustedOrigin: HTTPOrigin? { HTTPOrigin(configuration.baseURL) }

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

    /// Refuses hosts the transport cannot reach. On Linux, FoundationNetworking rejects every URL
    /// whose host is an IPv6 literal (`http://[::1]:8080` fails with `URLError` -1000), so such a
    /// host is refused up front with a message that says why and what to use instead.
    static func checkHostIsUsable(_ host: String) throws(HTTPError) {
        #if canImport(FoundationNetworking)
            if host.contains(":") {
                throw .unsupportedHost(host)
            }
        #endif
    }

    /// A URL with any `user:password@` part removed, for messages.
    static func redactingCredentials(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return "<unparseable URL>"
        }
        if components.user != nil || components.password != nil {
            components.user = nil
            components.password = nil
        }
        return components.string ?? "<unparseable URL>"
    }

    // MARK: - Sending

    private func perform(_ request: URLRequest, secrets: [String]) async throws(HTTPError) -> Data {
        guard let trustedOrigin else { throw .invalidURL(Self.redactingCredentials(configuration.baseURL)) }
        let policy = ResponseLoader.Policy(
            maximumBytes: configuration.maximumResponseBytes,
            trustedOrigin: trustedOrigin,
            allowsInsecureHTTP: configuration.allowsInsecureHTTP,
            timeout: configuration.timeout
        )
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await loader.load(request, policy: policy)
        } catch {
            throw Self.map(error)
        }
        return try validate(data: data, response: response, secrets: secrets)
    }

    /// Checks status and size; the final size check backs up the streaming one.
    func validate(data: Data, response: URLResponse, secrets: [String] = []) throws(HTTPError) -> Data {
        guard let http = response as? HTTPURLResponse else {
            throw .transport("not an HTTP response")
        }
        let limit = configuration.maximumResponseBytes
        if data.count > limit || http.expectedContentLength > Int64(limit) {
            throw .responseTooLarge(limit: limit)
        }
        guard (200..<300).contains(http.statusCode) else {
            throw .status(code: http.statusCode, body: Self.errorText(from: data, redacting: secrets))
        }
        return data
    }

    /// The server's error message, from `{"error": "..."}` when it sends one, else the raw text,
    /// cut to 512 characters.
    ///
    /// Every secret the request carried is replaced by `<redacted>` first, in each form the client
    /// put it on the wire (see ``Secret/wireForms``), and only then is the text cut, so a secret
    /// that straddles the cut cannot survive in part.
    static func errorText(from data: Data, redacting secrets: [String] = []) -> String {
        struct ErrorBody: Decodable { let error: String }
        var text: String
        if let body = try? JSONDecoder().decode(ErrorBody.self, from: data) {
            text = body.error
        } else {
            text = String(decoding: data, as: UTF8.self)
        }
        let forms = Set(secrets.flatMap(Secret.wireForms(of:))).sorted { $0.count > $1.count }
        for form in forms {
            text = text.replacingOccurrences(of: form, with: "<redacted>")
        }
        if text.count > 512 { text = String(text.prefix(512)) + "…" }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func map(_ error: any Error) -> HTTPError {
        if let error = error as? HTTPError { return error }
        if error is CancellationError { return .cancelled }
        guard let urlError = error as? URLError else { return .transport(String(describing: type(of: error))) }
        switch urlError.code {
        case .timedOut: return .timedOut
        case .cancelled: return .cancelled
        case .cannotConnectToHost: return .connectionFailed("connection refused")
        case .cannotFindHost, .dnsLookupFailed: return .connectionFailed("host not found")
        case .networkConnectionLost: return .connectionFailed("connection lost")
        case .notConnectedToInternet: return .connectionFailed("no network")
        default: return .transport("URLError \(urlError.code.rawValue)")
        }
    }

    // MARK: - JSON

    /// Encodes `body`, collecting the revealed value of every ``Secret`` inside it.
    static func encode(_ body: any Encodable) throws(HTTPError) -> (data: Data, secrets: [String]) {
        let collector = Secret.Collector()
        let encoder = JSONEncoder()
        encoder.userInfo[Secret.Collector.key] = collector
        do {
            return (try encoder.encode(body), collector.values)
        } catch {
            throw .encodingFailed(String(describing: type(of: body)))
        }
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
