/// Why an HTTP request failed. Never contains a password or token.
public enum HTTPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path or base URL does not form a valid URL.
    case invalidURL(String)
    /// Plain `http://` to a host other than loopback, refused because the configuration does not
    /// allow it.
    case insecureTransport(host: String)
    /// The server could not be reached (connection refused, host not found, network down).
    case connectionFailed(String)
    /// No complete response arrived within the configured timeout. The call ends at the deadline
    /// itself, whether or not the transport has noticed.
    case timedOut
    /// The server answered with a status outside 200–299.
    case status(code: Int, body: String)
    /// The server answered 2xx with no body where one was expected.
    case emptyBody
    /// The body was not the JSON that was expected.
    case malformedResponse(String)
    /// The body was larger than the configured limit.
    case responseTooLarge(limit: Int)
    /// Encoding the request body failed.
    case encodingFailed(String)
    /// The calling task was cancelled before the response arrived: before the call (nothing is
    /// sent) or during it (the call ends at once, without waiting for the transport).
    case cancelled
    /// Any other transport failure.
    case transport(String)
    /// The configuration cannot be used, for example a timeout that is not a finite number of
    /// seconds within ``HTTPConfiguration/timeoutRange``. Nothing was sent.
    case invalidConfiguration(String)
    /// The host cannot be reached by this platform's URL loading system (on Linux, an IPv6
    /// address literal such as `[::1]`; use `127.0.0.1` or `localhost`). Nothing was sent.
    case unsupportedHost(String)

    /// A one-line explanation for people.
    public var description: String {
        switch self {
        case .invalidURL(let url): "invalid URL: \(url)"
        case .insecureTransport(let host):
            "refused plain http:// to \(host); use https or allow insecure HTTP in the configuration"
        case .connectionFailed(let reason): "could not connect: \(reason)"
        case .timedOut: "the request timed out"
        case .status(let code, let body): body.isEmpty ? "HTTP \(code)" : "HTTP \(code): \(body)"
        case .emptyBody: "the response body was empty"
        case .malformedResponse(let reason): "malformed response: \(reason)"
        case .responseTooLarge(let limit): "the response was larger than \(limit) bytes"
        case .encodingFailed(let reason): "could not encode the request: \(reason)"
        case .cancelled: "the request was cancelled"
        case .transport(let reason): "transport error: \(reason)"
        case .invalidConfiguration(let reason): "invalid HTTP configuration: \(reason)"
        case .unsupportedHost(let host):
            "the host \(host) cannot be used on this platform; use 127.0.0.1 or localhost for this machine"
        }
    }
}
