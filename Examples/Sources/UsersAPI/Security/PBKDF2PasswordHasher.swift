/// PBKDF2-HMAC-SHA-256 (RFC 8018) with a 16-byte random salt per password.
///
/// The cost is the iteration count. The default suits a demonstration in a debug build; a
/// production server would use a far higher cost or bcrypt/Argon2 from a crypto library.
public struct PBKDF2PasswordHasher: PasswordHasher {
    /// Iterations for new hashes.
    public let iterations: Int

    /// Creates a hasher.
    /// - Parameter iterations: Iterations for new hashes; 1 to ``maximumIterations``.
    public init(iterations: Int = 5_000) {
        guard (1...Self.maximumIterations).contains(iterations) else {
            fatalError(
                "PBKDF2PasswordHasher(iterations: \(iterations)): pass 1 to \(Self.maximumIterations) iterations")
        }
        self.iterations = iterations
    }

    /// The most iterations a hash may ask for; a stored hash asking for more is refused
    /// rather than verified, so a tampered record cannot stall a log-in.
    public static let maximumIterations = 10_000_000

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
        guard (1...Self.maximumIterations).contains(hash.iterations) else { return false }
        let candidate = Self.derive(password, salt: hash.salt, iterations: hash.iterations)
        guard candidate.count == hash.digest.count else { return false }
        // Constant time, so response timing does not tell how many bytes matched.
        var difference: UInt8 = 0
        for (left, right) in zip(candidate, hash.digest) { difference |= left ^ right }
        return difference == 0
    }

    /// One 32-byte block of PBKDF2-HMAC-SHA-256.
    static func derive(_ password: String, salt: [UInt8], iterations: Int) -> [UInt8] {
        deriveCountingWork(password, salt: salt, iterations: iterations).key
    }

    /// The derived key, and how many SHA-256 blocks the derivation compressed.
    ///
    /// The HMAC key is prepared once: a password longer than a block is hashed once, not on
    /// each of the iterations, so the cost is `password bytes / 64 + 4 × iterations` blocks.
    static func deriveCountingWork(
        _ password: String,
        salt: [UInt8],
        iterations: Int
    ) -> (key: [UInt8], compressedBlocks: Int) {
        var work = 0
        let prf = HMACSHA256(key: password.utf8, work: &work)
        var u = prf.authenticate(salt + [0, 0, 0, 1], work: &work)
        var result = u
        for _ in 1..<max(iterations, 1) {
            u = prf.authenticate(u, work: &work)
            for index in result.indices { result[index] ^= u[index] }
        }
        return (result, work)
    }
}
