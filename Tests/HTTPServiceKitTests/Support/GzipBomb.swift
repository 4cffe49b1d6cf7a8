import Foundation

/// A valid gzip stream of zero bytes, built by hand (no compression library is needed): one
/// dynamic-Huffman deflate block whose only codes are "literal 0", "length 258" and "distance 1",
/// the last two one bit each, so every 2 bits decode to 258 bytes — the 1:1032 ratio of the worst
/// real-world bombs (`gzip -9` of zeros).
///
/// Served as `prefix`, `unit` × `count`, `suffix`, so a server can stream it without holding it.
struct GzipBomb {
    let prefix: Data
    let unit: Data
    let count: Int
    let suffix: Data
    /// The exact number of bytes the stream decodes to.
    let decodedBytes: Int

    /// The compressed size.
    var encodedBytes: Int { prefix.count + unit.count * count + suffix.count }

    /// - Parameter minimumDecodedBytes: The bomb decodes to at least this many bytes.
    init(minimumDecodedBytes: Int) {
        // A zero byte is four copies of 258 bytes, so after a byte-aligned prefix the stream is one
        // repeated zero byte.
        let copiesPerUnit = 4
        let copiesInPrefix = 2
        count = max(1, (minimumDecodedBytes / 258 + copiesPerUnit - 1) / copiesPerUnit)
        decodedBytes = 1 + 258 * (copiesInPrefix + copiesPerUnit * count)

        var head = BitWriter()
        head.write(1, bits: 1)  // BFINAL: the only block
        head.write(2, bits: 2)  // BTYPE 10: dynamic Huffman codes
        head.write(29, bits: 5)  // HLIT: 286 literal/length codes (up to 285, length 258)
        head.write(0, bits: 5)  // HDIST: one distance code
        head.write(15, bits: 4)  // HCLEN: 19 code-length codes
        // Code-length code lengths, in deflate's order 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4,
        // 12, 3, 13, 2, 14, 1, 15: symbol 18 gets 1 bit, symbols 1 and 2 get 2 bits.
        for length: UInt32 in [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0] {
            head.write(length, bits: 3)
        }
        // Canonical codes: 18 → 0, 1 → 10, 2 → 11.
        head.writeCode(0b11, bits: 2)  // literal 0 has length 2
        head.writeCode(0, bits: 1)
        head.write(127, bits: 7)  // 138 zeros (1...138)
        head.writeCode(0, bits: 1)
        head.write(106, bits: 7)  // 117 zeros (139...255)
        head.writeCode(0b11, bits: 2)  // end of block (256) has length 2
        head.writeCode(0, bits: 1)
        head.write(17, bits: 7)  // 28 zeros (257...284)
        head.writeCode(0b10, bits: 2)  // 285 (length 258) has length 1
        head.writeCode(0b10, bits: 2)  // distance code 0 (distance 1) has length 1
        // Canonical codes now: 285 → 0, literal 0 → 10, end of block → 11; distance 0 → 0.
        head.writeCode(0b10, bits: 2)  // literal 0
        for _ in 0..<copiesInPrefix { head.write(0, bits: 2) }  // 112 bits: byte-aligned
        var tail = BitWriter()
        tail.writeCode(0b11, bits: 2)  // end of block

        let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        prefix = Data(header + head.bytes)
        unit = Data([0])  // four copies of 258 bytes at distance 1
        var trailer = tail.bytes
        for value in [Self.crc32OfZeros(count: decodedBytes), UInt32(truncatingIfNeeded: decodedBytes)] {
            trailer += (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        suffix = Data(trailer)
    }

    /// Deflate packs bits from the least significant end; Huffman codes go most significant bit first.
    private struct BitWriter {
        var bytes: [UInt8] = []
        private var bitCount = 0

        mutating func write(_ value: UInt32, bits: Int) {
            for index in 0..<bits { append(bit: (value >> index) & 1) }
        }

        mutating func writeCode(_ code: UInt32, bits: Int) {
            for index in (0..<bits).reversed() { append(bit: (code >> index) & 1) }
        }

        private mutating func append(bit: UInt32) {
            if bitCount % 8 == 0 { bytes.append(0) }
            bytes[bytes.count - 1] |= UInt8(bit) << (bitCount % 8)
            bitCount += 1
        }
    }

    /// CRC-32 of `count` zero bytes, by squaring the GF(2) matrix of "one zero bit" (as zlib's
    /// `crc32_combine` does), so a gigabyte costs microseconds.
    static func crc32OfZeros(count: Int) -> UInt32 {
        func times(_ matrix: [UInt32], _ vector: UInt32) -> UInt32 {
            var sum: UInt32 = 0
            var vector = vector
            var index = 0
            while vector != 0 {
                if vector & 1 != 0 { sum ^= matrix[index] }
                vector >>= 1
                index += 1
            }
            return sum
        }
        func square(_ matrix: [UInt32]) -> [UInt32] { matrix.map { times(matrix, $0) } }

        var odd = [UInt32(0xEDB8_8320)] + (0..<31).map { UInt32(1) << $0 }
        var even = square(odd)  // two zero bits
        odd = square(even)  // four zero bits
        var crc: UInt32 = 0xFFFF_FFFF
        var remaining = count
        while remaining != 0 {
            even = square(odd)
            if remaining & 1 != 0 { crc = times(even, crc) }
            remaining >>= 1
            if remaining == 0 { break }
            odd = square(even)
            if remaining & 1 != 0 { crc = times(odd, crc) }
            remaining >>= 1
        }
        return crc ^ 0xFFFF_FFFF
    }
}
