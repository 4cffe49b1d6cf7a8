import Foundation

/// A string that must never be printed: a password or a bearer token.
///
/// Its `description`, `debugDescription` and reflection show `<redacted>`, so a secret that
/// ends up in a log line, an error message or a `dump` reveals nothing. Read the value
/// explicitly with ``revealed`` where it is really needed (an `Authorization` header, a request
/// body).
public struct Secret: Sendable, Hashable, Codable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The secret value. Reading it is deliberate; never interpolate it into text.
    public let revealed: String

    /// Wraps a secret value.
    /// - Parameter value: The password or token.
    public init(_ value: String) { revealed = value }

    /// Decodes a secret from a single JSON string.
    public init(from decoder: any Decoder) throws {
        revealed = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the secret as a single JSON string (request bodies need the real value).
    ///
    /// When the encoder carries a collector (``HTTPService`` sets one), the value is also
    /// recorded so that a server echoing it back in an error message can be redacted.
    public func encode(to encoder: any Encoder) throws {
        (encoder.userInfo[Collector.key] as? Collector)?.record(revealed)
        var container = encoder.singleValueContainer()
        try container.encode(revealed)
    }

    /// Always `<redacted>`.
    public var description: String { "<redacted>" }
    /// Always `Secret(<redacted>)`.
    public var debugDescription: String { "Secret(<redacted>)" }
    /// A mirror with no children, so `dump` and reflection reveal nothing.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension Secret {
    /// Gathers the secrets encoded into one request body, so their echoes can be redacted.
    final class Collector: Sendable {
        static let key = CodingUserInfoKey(rawValue: "HTTPServiceKit.Secret.Collector")!

        private let recorded = Lock<[String]>([])

        func record(_ value: String) { recorded.withLock { $0.append(value) } }

        var values: [String] { recorded.withLock { $0 } }
    }
}

extension Secret {
    /// Every form in which the client may have put `value` on the wire, for redaction: as it is
    /// (the `Authorization` header), as `JSONEncoder` escapes it inside a request body
    /// (`pa"ss/word` becomes `pa\"ss\/word`), the same without escaped slashes (as most servers
    /// re-serialise it), and percent-encoded (as it would appear in a URL or form).
    ///
    /// The list holds only non-empty forms, longest first, so that replacing them in order never
    /// leaves part of a longer form behind.
    static func wireForms(of value: String) -> [String] {
        guard !value.isEmpty else { return [] }
        var forms: Set<String> = [value]
        for options: JSONEncoder.OutputFormatting in [[], [.withoutEscapingSlashes]] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = options
            if let data = try? encoder.encode(value) {
                let quoted = String(decoding: data, as: UTF8.self)
                forms.insert(String(quoted.dropFirst().dropLast()))
            }
        }
        if let percentEncoded = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) {
            forms.insert(percentEncoded)
        }
        return forms.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
    }
}
