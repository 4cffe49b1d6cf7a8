import Foundation

extension HTTPService {
    /// Scheme, host and port: what decides whether a request may carry the bearer token.
    struct Origin: Hashable, Sendable {
        let scheme: String
        let host: String
        let port: Int

        /// The origin of an `http` or `https` URL with a host; `nil` otherwise.
        init?(_ url: URL) {
            guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                let host = url.host?.lowercased(), !host.isEmpty
            else { return nil }
            self.scheme = scheme
            self.host = host
            self.port = url.port ?? (scheme == "https" ? 443 : 80)
        }
    }
}
