internal import Crypto
internal import Foundation

/// Issues bearer tokens and fingerprints them for storage.
public protocol TokenIssuer: Sendable {
    /// A new, unguessable token.
    func issue() -> String
    /// A one-way fingerprint of `token`, which is what the repository stores.
    func fingerprint(of token: String) -> String
}

/// Tokens of 32 random bytes in URL-safe Base64; fingerprints are their SHA-256 (swift-crypto)
/// in hex.
///
/// Storing only fingerprints means a dump of the repository cannot be replayed as tokens.
public struct RandomTokenIssuer: TokenIssuer {
    /// Creates an issuer.
    public init() {}

    public func issue() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Self.base64URL(bytes)
    }

    public func fingerprint(of token: String) -> String {
        SHA256.hash(data: Array(token.utf8)).hexString
    }
    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value: UInt32 = 0
            for (offset, byte) in chunk.enumerated() { value |= UInt32(byte) << (16 - 8 * UInt32(offset)) }
            for position in 0...chunk.count {
                output.append(alphabet[Int((value >> (18 - 6 * UInt32(position))) & 63)])
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}

extension Sequence<UInt8> {
    /// Lower-case hexadecimal.
    var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
