public import AppCore
internal import AsyncHTTPClient
internal import Foundation
internal import NIOConcurrencyHelpers
internal import NIOCore
internal import NIOHTTP1
internal import NIOHTTPCompression

/// AppCore's ``AppCore/HTTPServiceType`` over [AsyncHTTPClient](https://github.com/swift-server/async-http-client)
/// (SwiftNIO), for Linux: a gzip or deflate body stops inflating at the size limit.
///
/// On Linux, FoundationNetworking inflates a compressed body inside libcurl's read pass, and
/// cancelling a transfer waits for that pass: 2 MiB of gzip that inflates to 2 GiB costs
/// AppCore's `URLSession` transport about 18 s, most of it CPU, before it gives up at a 1 MiB
/// limit. This service inflates with SwiftNIO's decompressor, which counts what it has
/// inflated after every piece and stops the body at
/// ``AppCore/HTTPConfiguration/maximumResponseBytes``: the same bomb stops after inflating about
/// that much (measured: well under a second of CPU), and memory stays bounded by the limit.
///
/// It keeps AppCore's `HTTPService` rules, so an app can swap one for the other through its
/// container without changing what a request may do:
/// - paths resolve against ``AppCore/HTTPConfiguration/baseURL``; the bearer token goes only to
///   that URL's origin (scheme, host and port);
/// - plain `http://` goes only to loopback (`localhost`, `127.x.y.z`, `[::1]`) unless
///   ``AppCore/HTTPConfiguration/allowsInsecureHTTP`` is set;
/// - redirects are not followed: a `3xx` is ``AppCore/HTTPError/status(code:body:)``, so a token
///   never travels along one;
/// - a body over the limit, by its `Content-Length` or as it streams in (decoded), is
///   ``AppCore/HTTPError/responseTooLarge(limit:)``;
/// - every secret the request carried (the token, and each ``AppCore/Secret`` in the body) is
///   replaced by `<redacted>` in an error body, as sent, JSON-escaped and percent-encoded.
///
/// IPv6 literal hosts (`http://[::1]:8080`) work here, unlike with FoundationNetworking.
///
/// Install it by overriding the container's resolve:
///
/// ```swift
/// override func resolveHTTPService() -> any HTTPServiceType {
///     live { AsyncHTTPService(configuration: resolveHTTPConfiguration()) }
/// }
/// ```
public struct AsyncHTTPService: HTTPServiceType {
    /// The configuration in use.
    public let configuration: HTTPConfiguration

    /// Creates a service.
    ///
    /// Services with the same response limit share one `HTTPClient` (and its connection pool)
    /// for the life of the process, so creating a service is cheap and one per resolve is fine.
    /// - Parameter configuration: Where and how to talk to the server.
    public init(configuration: HTTPConfiguration) {
        self.configuration = configuration
    }

    /// Sends a `GET` to `path` and decodes the JSON response.
    /// - Parameters:
    ///   - path: A path relative to the base URL, such as `/users/me`.
    ///   - token: A bearer token, sent only to the base URL's origin.
    /// - Returns: The decoded response.
    /// - Throws: ``AppCore/HTTPError``.
    public func get<Response: Decodable & Sendable>(
        _ path: String,
        token: Secret?
    ) async throws(HTTPError) -> Response {
        try decode(try await perform(method: .GET, path: path, body: nil, token: token))
    }

    /// Sends a `POST` with a JSON body to `path` and decodes the JSON response.
    /// - Parameters:
    ///   - path: A path relative to the base URL.
    ///   - body: The value to encode as the JSON body.
    ///   - token: A bearer token, sent only to the base URL's origin.
    /// - Returns: The decoded response.
    /// - Throws: ``AppCore/HTTPError``.
    public func post<Body: Encodable & Sendable, Response: Decodable & Sendable>(
        _ path: String,
        body: Body,
        token: Secret?
    ) async throws(HTTPError) -> Response {
        try decode(try await perform(method: .POST, path: path, body: body, token: token))
    }

    /// Sends a `POST` with a JSON body to `path`, ignoring any response body.
    /// - Parameters:
    ///   - path: A path relative to the base URL.
    ///   - body: The value to encode as the JSON body.
    ///   - token: A bearer token, sent only to the base URL's origin.
    /// - Throws: ``AppCore/HTTPError``.
    public func send<Body: Encodable & Sendable>(
        _ path: String,
        body: Body,
        token: Secret?
    ) async throws(HTTPError) {
        _ = try await perform(method: .POST, path: path, body: body, token: token)
    }

    // MARK: - Sending

    private func perform(
        method: HTTPMethod, path: String, body: (any Encodable)?, token: Secret?
    ) async throws(HTTPError) -> Data {
        let timeout = configuration.timeout
        guard timeout > 0, HTTPConfiguration.timeoutRange.contains(timeout) else {
            throw .invalidConfiguration(
                "the timeout must be more than 0 and at most \(Int(HTTPConfiguration.timeoutRange.upperBound)) seconds")
        }
        let url = try resolve(path)
        guard let origin = HTTPOrigin(url), let trusted = HTTPOrigin(configuration.baseURL) else {
            throw .invalidURL(Self.redactingCredentials(url))
        }
        if origin.scheme == "http", !configuration.allowsInsecureHTTP, !HTTPOrigin.isLoopback(origin.host) {
            throw .insecureTransport(host: origin.host)
        }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = method
        request.headers.add(name: "Accept", value: "application/json")
        // The limit is about decoded bytes; an honest server then sends as many as it means.
        request.headers.add(name: "Accept-Encoding", value: "identity")
        var secrets: [String] = []
        if let body {
            let data: Data
            do {
                data = try JSONEncoder().encode(body)
            } catch {
                throw .encodingFailed(String(describing: type(of: body)))
            }
            secrets += Self.secrets(in: body)
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: data))
        }
        if let token, origin == trusted {
            request.headers.add(name: "Authorization", value: "Bearer \(token.revealed)")
            secrets.append(token.revealed)
        }
        let limit = configuration.maximumResponseBytes
        let prepared = request
        let exchange: Exchange
        do {
            // The whole exchange, body included, races the timeout: a server that sends its head
            // and then trickles or stalls the body cannot hold the caller past it.
            exchange = try await withThrowingTaskGroup(of: Exchange?.self) { group in
                group.addTask { try await Self.exchange(prepared, limit: limit) }
                group.addTask {
                    try await Task.sleep(for: .seconds(timeout))
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let exchange = first else { throw HTTPError.timedOut }
                return exchange
            }
        } catch {
            throw Self.map(error, limit: limit)
        }
        guard (200..<300).contains(exchange.status) else {
            throw .status(code: exchange.status, body: Self.errorText(from: exchange.body, redacting: secrets))
        }
        return exchange.body
    }

    /// A response's status and its body, read in full (at most the limit).
    struct Exchange: Sendable {
        var status: Int
        var body: Data
    }

    private static func exchange(_ request: HTTPClientRequest, limit: Int) async throws -> Exchange {
        let response = try await client(limit: limit).execute(request, timeout: .hours(24 * 366))
        let encoded = response.headers.contains { $0.name.lowercased() == "content-encoding" }
        if !encoded, let length = response.headers.first(name: "content-length").flatMap(Int.init), length > limit {
            throw HTTPError.responseTooLarge(limit: limit)
        }
        var body = Data()
        for try await piece in response.body {
            guard body.count + piece.readableBytes <= limit else { throw HTTPError.responseTooLarge(limit: limit) }
            body.append(contentsOf: piece.readableBytesView)
        }
        return Exchange(status: Int(response.status.code), body: body)
    }

    func resolve(_ path: String) throws(HTTPError) -> URL {
        if let absolute = URL(string: path), absolute.scheme != nil { return absolute }
        var base = configuration.baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: base + (path.hasPrefix("/") ? path : "/" + path)) else { throw .invalidURL(path) }
        return url
    }

    private func decode<Response: Decodable>(_ data: Data) throws(HTTPError) -> Response {
        if data.isEmpty { throw .emptyBody }
        do {
            return try JSONDecoder().decode(Response.self, from: data)
        } catch {
            throw .malformedResponse("expected \(Response.self)")
        }
    }

    // MARK: - Clients

    /// One client per response limit (the decompression limit is a client setting), kept for
    /// the life of the process like `HTTPClient.shared`.
    private static let clients = NIOLockedValueBox([Int: HTTPClient]())

    static func client(limit: Int) -> HTTPClient {
        clients.withLockedValue { clients in
            if let client = clients[limit] { return client }
            var configuration = HTTPClient.Configuration(
                redirectConfiguration: .disallow,
                decompression: .enabled(limit: .size(limit))
            )
            configuration.httpVersion = .http1Only
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            clients[limit] = client
            return client
        }
    }

    // MARK: - Failures and secrets

    static func map(_ error: any Error, limit: Int) -> HTTPError {
        if let error = error as? HTTPError { return error }
        if error is CancellationError { return .cancelled }
        if let error = error as? NIOHTTPDecompression.DecompressionError, case .limit = error {
            return .responseTooLarge(limit: limit)
        }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .getConnectionFromPoolTimeout:
                return .timedOut
            case .cancelled: return .cancelled
            case .remoteConnectionClosed: return .connectionFailed("connection lost")
            case .invalidURL, .emptyHost, .emptyScheme: return .invalidURL("the URL has no usable host")
            default: return .transport("HTTPClientError \(error)")
            }
        }
        if let error = error as? IOError {
            return .connectionFailed(error.errnoCode == ECONNREFUSED ? "connection refused" : "connection lost")
        }
        // SwiftNIO's connect failure (NIOPosix's NIOConnectionError) lists each address tried.
        if String(describing: error).contains("Connection refused") { return .connectionFailed("connection refused") }
        if error is NIOHTTPDecompression.DecompressionError { return .malformedResponse("a corrupt compressed body") }
        return .transport(String(describing: type(of: error)))
    }

    /// The revealed value of every ``AppCore/Secret`` inside `body`, found by reflection
    /// (a secret hides itself from its mirror, but not its type).
    static func secrets(in body: Any, depth: Int = 0) -> [String] {
        if let secret = body as? Secret { return [secret.revealed] }
        guard depth < 8 else { return [] }
        return Mirror(reflecting: body).children.flatMap { secrets(in: $0.value, depth: depth + 1) }
    }

    /// The server's error message, from `{"error": "..."}` when it sends one, else the raw text,
    /// with every secret replaced first, and then cut to 512 characters.
    static func errorText(from data: Data, redacting secrets: [String]) -> String {
        struct ErrorBody: Decodable { let error: String }
        var text: String
        if let body = try? JSONDecoder().decode(ErrorBody.self, from: data) {
            text = body.error
        } else {
            text = String(decoding: data, as: UTF8.self)
        }
        let forms = Set(secrets.flatMap(wireForms(of:))).filter { !$0.isEmpty }.sorted { $0.count > $1.count }
        for form in forms { text = text.replacingOccurrences(of: form, with: "<redacted>") }
        if text.count > 512 { text = String(text.prefix(512)) + "…" }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A secret as a server might echo it: as sent, JSON-escaped (each way `JSONEncoder` and
    /// others write it), and percent-encoded.
    static func wireForms(of value: String) -> [String] {
        var forms = [value]
        if let json = try? JSONEncoder().encode(value), json.count >= 2 {
            forms.append(String(decoding: json.dropFirst().dropLast(), as: UTF8.self))
        }
        forms.append(value.replacingOccurrences(of: "/", with: "\\/"))
        if let encoded = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) { forms.append(encoded) }
        return forms
    }

    /// A URL with any `user:password@` part removed, for messages.
    static func redactingCredentials(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return "<unparseable URL>"
        }
        components.user = nil
        components.password = nil
        return components.string ?? "<unparseable URL>"
    }
}
