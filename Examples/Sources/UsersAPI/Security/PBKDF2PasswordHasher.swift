/// PBKDF2-HMAC-SHA-256 (RFC 8018) with a 16-byte random salt per password.
///
/// The cost is the iteration count. The default suits a demonstration in a debug build; a
/// production server would use a far higher cost or bcrypt/Argon2 from a crypto library.
public struct PBKDF2PasswordHasher: PasswordHasher {
    /// Iterations for new hashes.
    public let iterations: Int

    /// Creates a hasher.
    /// - Parameter iterations: Iterations for new hashes; at least 1.
    public init(iterations: Int = 5_000) {
        precondition(iterations >= 1, "PBKDF2 needs at least one iteration")
        self.iterations = iterations
    }

    public func hash(_ password: String) -> PasswordHash {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return PasswordHash(
            salt: salt,
            iterations: iterations,
            digest: Self.derive(password, salt: salt, iterations: iterations)
        )
    }

    public func verify(_ password: String, against hash: PasswordHash) -> Bool {
        let candidate = Self.derive(password, salt: hash.salt, iterations: hash.iterations)
        guard candidate.count == hash.digest.count else { return false }
        // Constant time, so response timing does not tell how many bytes matched.
        var difference: UInt8 = 0
        for (left, right) in zip(candidate, hash.digest) { difference |= left ^ right }
        return difference == 0
    }

    /// One 32-byte block of PBKDF2-HMAC-SHA-256.
    static func derive(_ password: String, salt: [UInt8], iterations: Int) -> [UInt8] {
        let key = Array(password.utf8)
        var u = SHA256.hmac(key: key, message: salt + [0, 0, 0, 1])
        var result = u
        for _ in 1..<max(iterations, 1) {
            u = SHA256.hmac(key: key, message: u)
            for index in result.indices { result[index] ^= u[index] }
        }
        return result
    }
}
