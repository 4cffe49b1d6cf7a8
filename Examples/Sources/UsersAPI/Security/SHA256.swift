/// SHA-256 (FIPS 180-4), enough for PBKDF2 and token fingerprints without a crypto dependency.
///
/// The example keeps the package graph small; a production server would use swift-crypto.
struct SHA256 {
    static let digestSize = 32
    static let blockSize = 64

    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    private static let initialState: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]

    private var state: [UInt32]
    /// Bytes waiting for a full 64-byte block.
    private var pending: [UInt8] = []
    private var byteCount: UInt64 = 0
    /// Blocks run through the compression function so far: the work this hash has done, which
    /// lets tests count what a derivation costs without timing it.
    private(set) var compressedBlocks = 0
    private var schedule = [UInt32](repeating: 0, count: 64)

    /// A hash with nothing absorbed yet.
    init() {
        state = Self.initialState
        pending.reserveCapacity(Self.blockSize)
    }

    /// Absorbs `bytes`.
    mutating func update(_ bytes: some Collection<UInt8>) {
        let bytes = Array(bytes)
        byteCount &+= UInt64(bytes.count)
        var next = 0
        if !pending.isEmpty {
            let taken = min(Self.blockSize - pending.count, bytes.count)
            pending += bytes[..<taken]
            next = taken
            guard pending.count == Self.blockSize else { return }
            Self.compress(&state, pending[...], schedule: &schedule)
            compressedBlocks += 1
            pending.removeAll(keepingCapacity: true)
        }
        while bytes.count - next >= Self.blockSize {
            Self.compress(&state, bytes[next..<next + Self.blockSize], schedule: &schedule)
            compressedBlocks += 1
            next += Self.blockSize
        }
        pending += bytes[next...]
    }

    /// The digest of everything absorbed, leaving this value as it was (so a prepared state,
    /// such as an HMAC key's, can be copied and finished many times).
    func finalize() -> [UInt8] {
        finalizeCounting().digest
    }

    /// The digest, and the total number of blocks compressed including the padding's.
    func finalizeCounting() -> (digest: [UInt8], compressedBlocks: Int) {
        var copy = self
        let bitLength = byteCount &* 8
        var tail: [UInt8] = [0x80]
        while (copy.pending.count + tail.count) % Self.blockSize != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        copy.update(tail)
        var digest: [UInt8] = []
        digest.reserveCapacity(Self.digestSize)
        for word in copy.state {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return (digest, copy.compressedBlocks)
    }

    /// The digest of `message`.
    static func hash(_ message: some Collection<UInt8>) -> [UInt8] {
        var hash = SHA256()
        hash.update(message)
        return hash.finalize()
    }

    /// HMAC-SHA-256 (RFC 2104) of `message` under `key`.
    static func hmac(key: [UInt8], message: some Collection<UInt8>) -> [UInt8] {
        var work = 0
        return HMACSHA256(key: key, work: &work).authenticate(message, work: &work)
    }

    private static func compress(_ state: inout [UInt32], _ block: ArraySlice<UInt8>, schedule w: inout [UInt32]) {
        var index = block.startIndex
        for t in 0..<16 {
            w[t] =
                UInt32(block[index]) << 24 | UInt32(block[index + 1]) << 16 | UInt32(block[index + 2]) << 8
                | UInt32(block[index + 3])
            index += 4
        }
        for t in 16..<64 {
            let s0 = rotate(w[t - 15], 7) ^ rotate(w[t - 15], 18) ^ (w[t - 15] >> 3)
            let s1 = rotate(w[t - 2], 17) ^ rotate(w[t - 2], 19) ^ (w[t - 2] >> 10)
            w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        for t in 0..<64 {
            let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
            let choice = (e & f) ^ (~e & g)
            let temp1 = h &+ s1 &+ choice &+ k[t] &+ w[t]
            let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let temp2 = s0 &+ majority
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ temp1, c, b, a, temp1 &+ temp2)
        }
        state[0] &+= a
        state[1] &+= b
        state[2] &+= c
        state[3] &+= d
        state[4] &+= e
        state[5] &+= f
        state[6] &+= g
        state[7] &+= h
    }

    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value >> count) | (value << (32 - count))
    }
}

/// HMAC-SHA-256 (RFC 2104) under one key, prepared once.
///
/// A key longer than a block is hashed here, once, and the padded inner and outer keys are
/// absorbed once; each ``authenticate(_:work:)`` then costs a few blocks whatever the key's
/// length. (Re-hashing a long key per message made PBKDF2 cost iterations × key length.)
struct HMACSHA256 {
    private let inner: SHA256
    private let outer: SHA256

    /// Prepares `key`, adding the blocks it compressed to `work`.
    init(key: some Collection<UInt8>, work: inout Int) {
        var block: [UInt8]
        if key.count > SHA256.blockSize {
            var longKey = SHA256()
            longKey.update(key)
            let (digest, blocks) = longKey.finalizeCounting()
            block = digest
            work += blocks
        } else {
            block = Array(key)
        }
        block += [UInt8](repeating: 0, count: SHA256.blockSize - block.count)
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        work += inner.compressedBlocks + outer.compressedBlocks
        self.inner = inner
        self.outer = outer
    }

    /// The MAC of `message`, adding the blocks compressed to `work`.
    func authenticate(_ message: some Collection<UInt8>, work: inout Int) -> [UInt8] {
        var inner = self.inner
        let before = inner.compressedBlocks + outer.compressedBlocks
        inner.update(message)
        let (innerDigest, innerBlocks) = inner.finalizeCounting()
        var outer = self.outer
        outer.update(innerDigest)
        let (digest, outerBlocks) = outer.finalizeCounting()
        work += innerBlocks + outerBlocks - before
        return digest
    }
}

extension Collection<UInt8> {
    /// Lower-case hexadecimal.
    var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count * 2)
        for byte in self {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
