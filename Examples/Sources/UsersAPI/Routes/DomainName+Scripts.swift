extension DomainName {
    /// The writing system a code point belongs to, as far as telling lookalike labels apart
    /// needs: the scripts of Unicode's Scripts.txt that domains are registered in, plus
    /// ``common`` (digits, the hyphen, punctuation, symbols) and ``inherited`` (combining marks
    /// that take the script of the letter they follow), which mix with any script.
    ///
    /// A code point outside the listed ranges is told apart by its 128-code-point block
    /// (``other(_:)``): two letters from one unlisted script agree, letters from two do not.
    enum Script: Hashable {
        case common, inherited
        case latin, greek, cyrillic, armenian, hebrew, arabic, syriac, thaana, nko
        case devanagari, bengali, gurmukhi, gujarati, oriya, tamil, telugu, kannada, malayalam, sinhala
        case thai, lao, tibetan, myanmar, georgian, hangul, ethiopic, cherokee, canadianAboriginal
        case khmer, mongolian, hiragana, katakana, bopomofo, han
        case other(UInt32)

        /// The script of `scalar`.
        init(_ scalar: Unicode.Scalar) {
            let value = scalar.value
            if let script = Self.ranges.first(where: { $0.range.contains(value) })?.script {
                self = script
                return
            }
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .spacingMark:
                self = .inherited
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .letterNumber, .decimalNumber:
                self = .other(value >> 7)
            default:
                self = .common
            }
        }

        /// Ranges from Unicode's Scripts.txt, coarsened to blocks where a block is one script;
        /// searched in order, so the exceptions inside a block come first.
        private static let ranges: [(range: ClosedRange<UInt32>, script: Script)] = [
            (0x30...0x39, .common), (0x2D...0x2D, .common),
            (0x41...0x5A, .latin), (0x61...0x7A, .latin), (0xAA...0xAA, .latin), (0xBA...0xBA, .latin),
            (0xD7...0xD7, .common), (0xF7...0xF7, .common),
            (0xC0...0x24F, .latin), (0x250...0x2AF, .latin), (0x1D00...0x1D25, .latin), (0x1E00...0x1EFF, .latin),
            (0x2C60...0x2C7F, .latin), (0xA720...0xA7FF, .latin), (0xAB30...0xAB64, .latin),
            (0xFF21...0xFF3A, .latin), (0xFF41...0xFF5A, .latin),
            (0x300...0x36F, .inherited), (0x1AB0...0x1AFF, .inherited), (0x1DC0...0x1DFF, .inherited),
            (0x20D0...0x20FF, .inherited), (0xFE00...0xFE0F, .inherited), (0xFE20...0xFE2F, .inherited),
            (0x37E...0x37E, .common), (0x387...0x387, .common),
            (0x370...0x3FF, .greek), (0x1F00...0x1FFF, .greek), (0x1D26...0x1D2A, .greek),
            (0x400...0x52F, .cyrillic), (0x1C80...0x1C8F, .cyrillic), (0x2DE0...0x2DFF, .cyrillic),
            (0xA640...0xA69F, .cyrillic), (0x1D2B...0x1D2B, .cyrillic),
            (0x531...0x58F, .armenian), (0xFB13...0xFB17, .armenian),
            (0x591...0x5FF, .hebrew), (0xFB1D...0xFB4F, .hebrew),
            (0x60C...0x60C, .common), (0x61B...0x61B, .common), (0x61F...0x61F, .common),
            (0x640...0x640, .common), (0x660...0x669, .arabic),
            (0x600...0x6FF, .arabic), (0x750...0x77F, .arabic), (0x8A0...0x8FF, .arabic),
            (0xFB50...0xFDFF, .arabic), (0xFE70...0xFEFF, .arabic),
            (0x700...0x74F, .syriac), (0x780...0x7BF, .thaana), (0x7C0...0x7FF, .nko),
            (0x964...0x965, .common),
            (0x900...0x97F, .devanagari), (0xA8E0...0xA8FF, .devanagari), (0x980...0x9FF, .bengali),
            (0xA00...0xA7F, .gurmukhi), (0xA80...0xAFF, .gujarati), (0xB00...0xB7F, .oriya),
            (0xB80...0xBFF, .tamil), (0xC00...0xC7F, .telugu), (0xC80...0xCFF, .kannada),
            (0xD00...0xD7F, .malayalam), (0xD80...0xDFF, .sinhala),
            (0xE3F...0xE3F, .common), (0xE00...0xE7F, .thai), (0xE80...0xEFF, .lao),
            (0xF00...0xFFF, .tibetan), (0x1000...0x109F, .myanmar),
            (0x10FB...0x10FB, .common), (0x10A0...0x10FF, .georgian), (0x2D00...0x2D2F, .georgian),
            (0x1C90...0x1CBF, .georgian),
            (0x1100...0x11FF, .hangul), (0x3130...0x318F, .hangul), (0xA960...0xA97F, .hangul),
            (0xAC00...0xD7AF, .hangul), (0xD7B0...0xD7FF, .hangul), (0xFFA0...0xFFDC, .hangul),
            (0x1200...0x139F, .ethiopic), (0x2D80...0x2DDF, .ethiopic), (0xAB00...0xAB2F, .ethiopic),
            (0x13A0...0x13FF, .cherokee), (0xAB70...0xABBF, .cherokee),
            (0x1400...0x167F, .canadianAboriginal), (0x18B0...0x18FF, .canadianAboriginal),
            (0x17E0...0x17E9, .khmer), (0x1780...0x17FF, .khmer), (0x19E0...0x19FF, .khmer),
            (0x1802...0x1803, .common), (0x1805...0x1805, .common), (0x1800...0x18AF, .mongolian),
            (0x3099...0x309C, .inherited), (0x3041...0x309F, .hiragana),
            (0x30A0...0x30A0, .common), (0x30FB...0x30FC, .common), (0x30A1...0x30FF, .katakana),
            (0x31F0...0x31FF, .katakana), (0xFF66...0xFF9F, .katakana),
            (0x3105...0x312F, .bopomofo), (0x31A0...0x31BF, .bopomofo),
            (0x3005...0x3005, .han), (0x3007...0x3007, .han), (0x3021...0x3029, .han), (0x3038...0x303B, .han),
            (0x2E80...0x2FDF, .han), (0x3400...0x4DBF, .han), (0x4E00...0x9FFF, .han), (0xF900...0xFAFF, .han),
            (0x20000...0x3134F, .han),
            (0x2000...0x2BFF, .common), (0x3000...0x303F, .common), (0xFF00...0xFFEF, .common),
        ]
    }

    /// Whether a browser shows `label` as it is, rather than as its `xn--` Punycode because it
    /// could pass for another label: the label's letters must come from one script, or from
    /// one of the combinations a language writes in — Latin with Han, Hiragana and Katakana
    /// (Japanese), with Han and Bopomofo (Chinese), with Han and Hangul (Korean). This is the
    /// *Highly Restrictive* level of UTS #39 §5.2, the one Chromium and Firefox apply to IDNs.
    ///
    /// A label written wholly in Cyrillic letters that all have Latin twins (`раураӏ`) under a
    /// top-level domain written in Latin is refused as well, as Chromium refuses it: it is one
    /// script, but it spells what a reader takes for a Latin word.
    /// - Parameters:
    ///   - label: One label, in its Unicode form.
    ///   - topLevel: The domain's last label, in its Unicode form.
    static func looksLikeItself(_ label: String, topLevel: String) -> Bool {
        var scripts = Set<Script>()
        for scalar in label.unicodeScalars {
            switch Script(scalar) {
            case .common, .inherited: continue
            case let script: scripts.insert(script)
            }
        }
        guard scripts.count <= 1 || Self.writingSystems.contains(where: { scripts.isSubset(of: $0) }) else {
            return false
        }
        if scripts == [.cyrillic], !topLevel.unicodeScalars.contains(where: { Script($0) == .cyrillic }),
            label.unicodeScalars.allSatisfy({ Script($0) != .cyrillic || Self.latinTwins.contains($0) })
        {
            return false
        }
        return true
    }

    /// The scripts UTS #39 lets one label mix: Japanese, Chinese and Korean writing.
    private static let writingSystems: [Set<Script>] = [
        [.latin, .han, .hiragana, .katakana], [.latin, .han, .bopomofo], [.latin, .han, .hangul],
    ]

    /// Lower-case Cyrillic letters that look like Latin ones in common fonts (Chromium's list of
    /// Cyrillic letters that make a whole-script confusable): а в е і ј к м н о р с т у х ѕ ԁ
    /// һ ԛ ԝ ӏ ь and their look-alike variants.
    private static let latinTwins: Set<Unicode.Scalar> = [
        "\u{430}", "\u{432}", "\u{435}", "\u{456}", "\u{458}", "\u{43A}", "\u{43C}", "\u{43D}", "\u{43E}",
        "\u{440}", "\u{441}", "\u{442}", "\u{443}", "\u{445}", "\u{455}", "\u{501}", "\u{4BB}", "\u{51B}",
        "\u{51D}", "\u{4CF}", "\u{44C}", "\u{44A}", "\u{4AF}", "\u{457}", "\u{450}", "\u{451}", "\u{45D}",
    ]
}
