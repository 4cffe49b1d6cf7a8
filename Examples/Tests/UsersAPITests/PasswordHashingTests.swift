import Testing

@testable import UsersAPI

/// The hand-written primitives against published test vectors.
@Suite struct PasswordHashingTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func sha256MatchesFIPSVectors(message: String, digest: String) {
        #expect(SHA256.hash(Array(message.utf8)).hexString == digest)
    }

    @Test func hmacMatchesRFC4231() {
        let mac = SHA256.hmac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(mac.hexString == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func hmacMatchesRFC4231ForAKeyLongerThanABlock() {
        // RFC 4231 test case 6: a 131-byte key is hashed first.
        let mac = SHA256.hmac(
            key: [UInt8](repeating: 0xaa, count: 131),
            message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)
        )
        #expect(mac.hexString == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func longPasswordIsHashedOnceNotOncePerIteration() {
        // 64 KiB of password is 1,024 blocks; hashing it on each of 8 iterations would be 8,192+.
        let password = String(repeating: "p", count: 64 * 1024)
        let iterations = 8
        let (key, work) = PBKDF2PasswordHasher.deriveCountingWork(
            password,
            salt: Array("salt".utf8),
            iterations: iterations
        )
        // The key once (1,024 blocks + padding), the two padded keys, 4 blocks per iteration.
        #expect(work <= 1_024 + 1 + 2 + 4 * iterations)
        #expect(key.count == 32)
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
