import Testing

@testable import UsersAPI

/// Passwords and tokens through swift-crypto, against published vectors and hashes stored by
/// the server before it used the library.
@Suite struct PasswordHashingTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    ])
    func tokenFingerprintIsTheFIPSSHA256InHex(token: String, digest: String) {
        // The same fingerprints as before: sessions stored earlier stay valid.
        #expect(RandomTokenIssuer().fingerprint(of: token) == digest)
    }

    @Test(arguments: [
        (1, "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b"),
        (2, "ae4d0c95af6b46d32d0adff928f06dd02a303f8ef3c251dfd6e2d85a95474c43"),
        (4096, "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a"),
    ])
    func pbkdf2MatchesKnownVectors(iterations: Int, key: String) {
        let derived = PBKDF2PasswordHasher.derive("password", salt: Array("salt".utf8), iterations: iterations)
        #expect(derived.hexString == key)
    }

    @Test func hashStoredBeforeTheLibraryStillVerifies() {
        // Written by the server's earlier, hand-written PBKDF2 with the default parameters
        // (16-byte salt, 5,000 iterations, 32-byte key); the stored format did not change.
        let stored = PasswordHash(
            salt: Array(0..<16),
            iterations: 5_000,
            digest: hex("23fe4e2d64c575945d416ca238b0a8d01f5e9fde1d2aa2293ec31c6696149697")
        )
        let hasher = PBKDF2PasswordHasher()
        #expect(hasher.verify("correct horse battery", against: stored))
        #expect(!hasher.verify("correct horse batterz", against: stored))
    }

    @Test func hashWithATruncatedDigestOrTooManyIterationsIsRefused() {
        let hasher = PBKDF2PasswordHasher(iterations: 2)
        let hash = hasher.hash("correct horse")
        let truncated = PasswordHash(
            salt: hash.salt, iterations: hash.iterations, digest: Array(hash.digest.prefix(16)))
        #expect(!hasher.verify("correct horse", against: truncated))
        let tampered = PasswordHash(
            salt: hash.salt, iterations: PBKDF2PasswordHasher.maximumIterations + 1, digest: hash.digest)
        #expect(!hasher.verify("correct horse", against: tampered))
    }

    private func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    @Test func hasherAcceptsTheRightPasswordOnly() {
        let hasher = PBKDF2PasswordHasher(iterations: 3)
        let hash = hasher.hash("correct horse")
        #expect(hasher.verify("correct horse", against: hash))
        #expect(!hasher.verify("correct horsf", against: hash))
        #expect(!hasher.verify("", against: hash))
        #expect(hasher.hash("correct horse").salt != hash.salt)
        #expect(!String(describing: hash).contains(hash.digest.hexString))
    }

    @Test func tokensAreUniqueURLSafeAndFingerprintedOneWay() {
        let issuer = RandomTokenIssuer()
        let tokens = (0..<100).map { _ in issuer.issue() }
        #expect(Set(tokens).count == tokens.count)
        for token in tokens {
            #expect(token.count == 43)
            #expect(token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
            #expect(issuer.fingerprint(of: token) != token)
            #expect(issuer.fingerprint(of: token) == issuer.fingerprint(of: token))
        }
    }
}
