public import Foundation

/// Where and how ``HTTPService`` talks to the server.
public struct HTTPConfiguration: Sendable, Hashable {
    /// The base URL that request paths are resolved against; the bearer token is only ever
    /// sent to this URL's host.
    public var baseURL: URL
    /// How long a request may take before it fails with ``HTTPError/timedOut``: the whole exchange,
    /// from sending to the last byte of the body, and the call ends at the deadline itself.
    ///
    /// Must lie in ``timeoutRange``: a timeout that is zero, negative, not a number, infinite or
    /// longer than a year makes every request fail with ``HTTPError/invalidConfiguration(_:)``
    /// before anything is sent. A very short one (a microsecond) is valid and times out at once.
    public var timeout: TimeInterval
    /// The largest response body accepted, in bytes.
    public var maximumResponseBytes: Int
    /// Whether plain `http://` to a host other than loopback is allowed. Off by default.
    public var allowsInsecureHTTP: Bool

    /// Creates a configuration.
    /// - Parameters:
    ///   - baseURL: The base URL that request paths are resolved against.
    ///   - timeout: Seconds before a request fails with ``HTTPError/timedOut``; see ``timeout``
    ///     for the values accepted.
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

    /// The timeouts accepted, in seconds: more than zero, at most one year (365 days).
    ///
    /// There is no "no timeout": a request that may wait forever is a request that may hang
    /// forever. Check a value from outside with `timeoutRange.contains(value) && value > 0`
    /// (the lower bound is open; `.nan` is in no range).
    public static let timeoutRange: ClosedRange<TimeInterval> = 0...(365 * 24 * 60 * 60)

    /// Why this configuration cannot be used, or `nil` when it can.
    var invalidReason: String? {
        guard timeout > 0, Self.timeoutRange.contains(timeout) else {
            return "the timeout must be more than 0 and at most \(Int(Self.timeoutRange.upperBound)) seconds"
        }
        return nil
    }

    /// Throws ``HTTPError/invalidConfiguration(_:)`` when this configuration cannot be used.
    func validate() throws(HTTPError) {
        if let invalidReason { throw .invalidConfiguration(invalidReason) }
    }

    /// A server on this machine: `http://127.0.0.1:8080`.
    public static let `default` = HTTPConfiguration(baseURL: URL(string: "http://127.0.0.1:8080")!)
}
