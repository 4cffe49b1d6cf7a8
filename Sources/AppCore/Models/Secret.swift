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
    public func encode(to encoder: any Encoder) throws {
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
