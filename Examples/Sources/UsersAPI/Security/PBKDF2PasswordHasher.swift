internal import Crypto
internal import Foundation
internal import _CryptoExtras

/// PBKDF2-HMAC-SHA-256 (RFC 8018) with a 16-byte random salt per password and a 32-byte key,
/// derived by swift-crypto (`KDF.Insecure.PBKDF2`, BoringSSL's `PKCS5_PBKDF2_HMAC` on Linux).
///
/// The parameters are stored with each hash (``PasswordHash``), so a hash made with one
/// iteration count still verifies after the default changes. The default, 5,000 iterations,
/// suits a demonstration; a production server would follow OWASP's current advice
/// (600,000 for PBKDF2-HMAC-SHA-256) or use a memory-hard function. swift-crypto refuses fewer
/// than 210,000 rounds unless asked through `unsafeUncheckedRounds`, which this example does,
/// knowingly, to keep the stored format and cost it has always had.
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

    /// The derived key's length in bytes: one SHA-256 output, so PBKDF2 runs one block.
    static let keyBytes = 32

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
        guard (1...Self.maximumIterations).contains(hash.iterations), hash.digest.count == Self.keyBytes else {
            return false
        }
        let candidate = Self.derive(password, salt: hash.salt, iterations: hash.iterations)
        // `SymmetricKey`'s `==` compares in constant time (swift-crypto's `safeCompare`), so
        // response timing does not tell how many bytes of the digest matched.
        return SymmetricKey(data: candidate) == SymmetricKey(data: hash.digest)
    }

    /// One 32-byte block of PBKDF2-HMAC-SHA-256.
    ///
    /// BoringSSL prepares the HMAC key once per derivation, so a long password costs its
    /// length once, not once per iteration.
    static func derive(_ password: String, salt: [UInt8], iterations: Int) -> [UInt8] {
        do {
            let key = try KDF.Insecure.PBKDF2.deriveKey(
                from: Array(password.utf8),
                salt: salt,
                using: .sha256,
                outputByteCount: keyBytes,
                unsafeUncheckedRounds: iterations
            )
            return key.withUnsafeBytes { Array($0) }
        } catch {
            // BoringSSL fails only when it cannot allocate; there is no hash to answer with.
            fatalError(
                "PBKDF2PasswordHasher: swift-crypto could not derive a key (\(error)); the process is out of memory")
        }
    }
}
