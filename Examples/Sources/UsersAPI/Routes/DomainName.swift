/// Punycode (RFC 3492): Unicode labels spelled in the letters, digits and hyphen DNS allows,
/// as IDNA writes them after `xn--` (`bücher` is `bcher-kva`).
enum Punycode {
    private static let base = 36
    private static let tMin = 1
    private static let tMax = 26
    private static let skew = 38
    private static let damp = 700
    private static let initialBias = 72
    private static let initialN = 0x80

    /// `scalars` in Punycode; `nil` when a count overflows (far longer input than any label).
    static func encode(_ scalars: [Unicode.Scalar]) -> String? {
        var output = scalars.filter(\.isASCII).map { Character($0) }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append("-") }
        var n = initialN
        var delta = 0
        var bias = initialBias
        let values = scalars.map { Int($0.value) }
        while handled < values.count {
            guard let next = values.filter({ $0 >= n }).min() else { return nil }
            let (step, stepOverflow) = (next - n).multipliedReportingOverflow(by: handled + 1)
            let (sum, sumOverflow) = delta.addingReportingOverflow(step)
            guard !stepOverflow, !sumOverflow else { return nil }
            delta = sum
            n = next
            for value in values {
                if value < n {
                    delta += 1
                } else if value == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = threshold(k, bias: bias)
                        if q < t { break }
                        output.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digit(q))
                    bias = adapt(delta, points: handled + 1, first: handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return String(output)
    }

    /// The scalars `text` spells in Punycode; `nil` when it is not valid Punycode (a digit out of
    /// range, a count that overflows, a basic or surrogate code point where only others may be).
    static func decode(_ text: some StringProtocol) -> [Unicode.Scalar]? {
        let input = Array(text.unicodeScalars)
        guard input.allSatisfy(\.isASCII) else { return nil }
        let delimiter = input.lastIndex(of: "-")
        var output = delimiter.map { Array(input[..<$0]) } ?? []
        var position = delimiter.map { $0 + 1 } ?? 0
        var n = initialN
        var i = 0
        var bias = initialBias
        while position < input.count {
            let oldI = i
            var weight = 1
            var k = base
            while true {
                guard position < input.count, let value = digitValue(input[position]) else { return nil }
                position += 1
                let (product, productOverflow) = value.multipliedReportingOverflow(by: weight)
                let (sum, sumOverflow) = i.addingReportingOverflow(product)
                guard !productOverflow, !sumOverflow else { return nil }
                i = sum
                let t = threshold(k, bias: bias)
                if value < t { break }
                let (nextWeight, weightOverflow) = weight.multipliedReportingOverflow(by: base - t)
                guard !weightOverflow else { return nil }
                weight = nextWeight
                k += base
            }
            bias = adapt(i - oldI, points: output.count + 1, first: oldI == 0)
            let (nextN, nOverflow) = n.addingReportingOverflow(i / (output.count + 1))
            guard !nOverflow, nextN >= initialN, let scalar = Unicode.Scalar(UInt32(clamping: nextN)) else {
                return nil
            }
            n = nextN
            i %= output.count + 1
            output.insert(scalar, at: i)
            i += 1
        }
        return output
    }

    private static func threshold(_ k: Int, bias: Int) -> Int {
        k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
    }

    private static func adapt(_ delta: Int, points: Int, first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / points
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    private static func digit(_ value: Int) -> Character {
        Character(Unicode.Scalar(UInt8(value < 26 ? 0x61 + value : 0x30 + value - 26)))
    }

    private static func digitValue(_ scalar: Unicode.Scalar) -> Int? {
        switch scalar.value {
        case 0x30...0x39: Int(scalar.value) - 0x30 + 26
        case 0x41...0x5A: Int(scalar.value) - 0x41
        case 0x61...0x7A: Int(scalar.value) - 0x61
        default: nil
        }
    }
}

/// Domain names in one spelling (IDNA): a label written in Unicode (`bücher`) and the same
/// label as its ASCII-compatible encoding (`xn--bcher-kva`) are one label.
enum DomainName {
    /// The longest label DNS allows, in its ASCII form.
    static let maximumLabelBytes = 63

    /// `domain` with every label in its Unicode form, each `xn--` label decoded and mapped as
    /// `map` maps the rest of the address (normalisation and case folding), so that its
    /// Unicode and ASCII spellings, composed or decomposed, agree.
    /// - Returns: The labels joined by dots, or `nil` when a label is empty, is not valid
    ///   Punycode after `xn--`, decodes to plain ASCII (not a spelling IDNA produces), holds a
    ///   dot, `@`, white space or a control character, is longer than DNS allows in ASCII, or
    ///   mixes scripts as no language does (see ``looksLikeItself(_:topLevel:)``): a browser
    ///   would show such a label as Punycode, and it could pass for an account's real domain.
    static func canonical(_ domain: some StringProtocol, map: (String) -> String) -> String? {
        var labels: [String] = []
        for label in domain.split(separator: ".", omittingEmptySubsequences: false) {
            var unicode = String(label)
            if label.hasPrefix("xn--") {
                guard let scalars = Punycode.decode(label.dropFirst(4)), !scalars.allSatisfy(\.isASCII) else {
                    return nil
                }
                unicode = map(String(String.UnicodeScalarView(scalars)))
            }
            guard !unicode.isEmpty, !unicode.hasPrefix("xn--"), asciiLength(unicode) <= maximumLabelBytes,
                !unicode.unicodeScalars.contains(where: isForbidden)
            else { return nil }
            labels.append(unicode)
        }
        // Last, once the top-level domain is known: a whole-script lookalike depends on it.
        let topLevel = labels.last ?? ""
        guard labels.allSatisfy({ looksLikeItself($0, topLevel: topLevel) }) else { return nil }
        return labels.joined(separator: ".")
    }

    /// The label's length as DNS sees it: as it is when ASCII, as `xn--` and its Punycode otherwise.
    private static func asciiLength(_ label: String) -> Int {
        let scalars = Array(label.unicodeScalars)
        if scalars.allSatisfy(\.isASCII) { return scalars.count }
        return Punycode.encode(scalars).map { 4 + $0.utf8.count } ?? .max
    }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "." || scalar == "@" || scalar.properties.isWhitespace
            || scalar.properties.generalCategory == .control
    }
}
