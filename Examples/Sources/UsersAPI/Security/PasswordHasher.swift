/// Turns a password into a salted hash and checks a password against one.
public protocol PasswordHasher: Sendable {
    /// Hashes `password` with a new random salt.
    func hash(_ password: String) -> PasswordHash
    /// Whether `password` matches `hash`, compared in constant time.
    func verify(_ password: String, against hash: PasswordHash) -> Bool
}

/// A salted password hash and the parameters that produced it.
public struct PasswordHash: Sendable, Hashable, CustomStringConvertible {
    /// The random salt.
    public let salt: [UInt8]
    /// The PBKDF2 iteration count.
    public let iterations: Int
    /// The derived key.
    public let digest: [UInt8]

    /// Creates a hash value.
    /// - Parameters:
    ///   - salt: The random salt.
    ///   - iterations: The iteration count.
    ///   - digest: The derived key.
    public init(salt: [UInt8], iterations: Int, digest: [UInt8]) {
        self.salt = salt
        self.iterations = iterations
        self.digest = digest
    }

    /// Never shows the salt or digest, which would help an offline attack.
    public var description: String { "PasswordHash(PBKDF2-SHA256, \(iterations) iterations, <redacted>)" }
}
