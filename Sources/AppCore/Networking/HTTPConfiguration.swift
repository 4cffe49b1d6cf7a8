public import Foundation

/// Where and how ``HTTPService`` talks to the server.
public struct HTTPConfiguration: Sendable, Hashable {
    /// The base URL that request paths are resolved against; the bearer token is only ever
    /// sent to this URL's host.
    public var baseURL: URL
    /// How long a request may take before it fails with ``HTTPError/timedOut``.
    public var timeout: TimeInterval
    /// The largest response body accepted, in bytes.
    public var maximumResponseBytes: Int
    /// Whether plain `http://` to a host other than loopback is allowed. Off by default.
    public var allowsInsecureHTTP: Bool

    /// Creates a configuration.
    /// - Parameters:
    ///   - baseURL: The base URL that request paths are resolved against.
    ///   - timeout: Seconds before a request fails with ``HTTPError/timedOut``.
    ///   - maximumResponseBytes: The largest response body accepted.
    ///   - allowsInsecureHTTP: Whether plain `http://` to non-loopback hosts is allowed.
    public init(
        baseURL: URL,
        timeout: TimeInterval = 30,
        maximumResponseBytes: Int = 1 << 20,
        allowsInsecureHTTP: Bool = false
    ) {
        self.baseURL = baseURL
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
        self.allowsInsecureHTTP = allowsInsecureHTTP
    }

    /// The configuration ``CoreDependency`` uses unless overridden: a server on this machine.
    public static let `default` = HTTPConfiguration(baseURL: URL(string: "http://127.0.0.1:8080")!)
}
