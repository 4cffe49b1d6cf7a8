public import Foundation

/// Scheme, host and port: what decides whether a request may carry a bearer token, and whether plain
/// `http` is allowed to it.
///
/// Every HTTP transport of the app asks the same two questions with this one type:
/// ``HTTPService`` and any other transport behind ``HTTPServiceType`` (the example app's
/// async-http-client one), so they cannot drift apart.
public struct HTTPOrigin: Hashable, Sendable {
    /// `http` or `https`, lower-cased.
    public let scheme: String
    /// The host, lower-cased.
    public let host: String
    /// The port, or the scheme's default (80, 443).
    public let port: Int

    /// The origin of an `http` or `https` URL with a host; `nil` otherwise.
    /// - Parameter url: The URL.
    public init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host?.lowercased(), !host.isEmpty
        else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = url.port ?? (scheme == "https" ? 443 : 80)
    }

    /// Whether `host` is this machine: `localhost`, `::1` (with or without brackets), or an address in
    /// `127.0.0.0/8`.
    ///
    /// Parsed strictly, in the one spelling that every resolver reads the same way: four decimal
    /// octets without leading zeros, no trailing dot. `127.0.0.1.example.com`, `127.08.0.1`
    /// (octal to some resolvers, a DNS name to others), `127.0.0.1.` and `localhost.` (fully
    /// qualified names that go to DNS) are not loopback.
    /// - Parameter host: A URL's host.
    /// - Returns: Whether plain `http` to it stays on this machine.
    public static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased()
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4,
            octets.allSatisfy({ octet in
                !octet.isEmpty && octet.count <= 3 && octet.allSatisfy { $0.isASCII && $0.isNumber }
                    && (octet == "0" || octet.first != "0") && UInt8(octet) != nil
            })
        else { return false }
        return octets[0] == "127"
    }
}
