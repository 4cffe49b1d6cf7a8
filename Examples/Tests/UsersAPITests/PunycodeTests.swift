import Testing

@testable import UsersAPI

/// Punycode against the sample strings of RFC 3492 §7.1, and IDNA labels in one spelling.
@Suite struct PunycodeTests {
    /// RFC 3492 §7.1, samples (A)–(G) and (L)–(S): the Unicode label and its Punycode.
    static let samples: [(String, String)] = [
        (
            "\u{644}\u{64A}\u{647}\u{645}\u{627}\u{628}\u{62A}\u{643}\u{644}\u{645}\u{648}\u{634}\u{639}\u{631}"
                + "\u{628}\u{64A}\u{61F}",
            "egbpdaj6bu4bxfgehfvwxn"
        ),
        ("\u{4ED6}\u{4EEC}\u{4E3A}\u{4EC0}\u{4E48}\u{4E0D}\u{8BF4}\u{4E2D}\u{6587}", "ihqwcrb4cv8a8dqg056pqjye"),
        ("\u{4ED6}\u{5011}\u{7232}\u{4EC0}\u{9EBD}\u{4E0D}\u{8AAA}\u{4E2D}\u{6587}", "ihqwctvzc91f659drss3x8bo0yb"),
        ("Pro\u{10D}prost\u{11B}nemluv\u{ED}\u{10D}esky", "Proprostnemluvesky-uyb24dma41a"),
        (
            "\u{5DC}\u{5DE}\u{5D4}\u{5D4}\u{5DD}\u{5E4}\u{5E9}\u{5D5}\u{5D8}\u{5DC}\u{5D0}\u{5DE}\u{5D3}\u{5D1}"
                + "\u{5E8}\u{5D9}\u{5DD}\u{5E2}\u{5D1}\u{5E8}\u{5D9}\u{5EA}",
            "4dbcagdahymbxekheh6e0a7fei0b"
        ),
        (
            "\u{92F}\u{939}\u{932}\u{94B}\u{917}\u{939}\u{93F}\u{928}\u{94D}\u{926}\u{940}\u{915}\u{94D}\u{92F}"
                + "\u{94B}\u{902}\u{928}\u{939}\u{940}\u{902}\u{92C}\u{94B}\u{932}\u{938}\u{915}\u{924}\u{947}"
                + "\u{939}\u{948}\u{902}",
            "i1baa7eci9glrd9b2ae1bj0hfcgg6iyaf8o0a1dig0cd"
        ),
        (
            "\u{306A}\u{305C}\u{307F}\u{3093}\u{306A}\u{65E5}\u{672C}\u{8A9E}\u{3092}\u{8A71}\u{3057}\u{3066}"
                + "\u{304F}\u{308C}\u{306A}\u{3044}\u{306E}\u{304B}",
            "n8jok5ay5dzabd5bym9f0cm5685rrjetr6pdxa"
        ),
        ("3\u{5E74}B\u{7D44}\u{91D1}\u{516B}\u{5148}\u{751F}", "3B-ww4c5e180e575a65lsy2b"),
        ("\u{5B89}\u{5BA4}\u{5948}\u{7F8E}\u{6075}-with-SUPER-MONKEYS", "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n"),
        (
            "Hello-Another-Way-\u{305D}\u{308C}\u{305E}\u{308C}\u{306E}\u{5834}\u{6240}",
            "Hello-Another-Way--fc4qua05auwb3674vfr0b"
        ),
        ("\u{3072}\u{3068}\u{3064}\u{5C4B}\u{6839}\u{306E}\u{4E0B}2", "2-u9tlzr9756bt3uc0v"),
        ("Maji\u{3067}Koi\u{3059}\u{308B}5\u{79D2}\u{524D}", "MajiKoi5-783gue6qz075azm5e"),
        ("\u{30D1}\u{30D5}\u{30A3}\u{30FC}de\u{30EB}\u{30F3}\u{30D0}", "de-jg4avhby1noc0d"),
        ("\u{305D}\u{306E}\u{30B9}\u{30D4}\u{30FC}\u{30C9}\u{3067}", "d9juau41awczczp"),
        ("-> $1.00 <-", "-> $1.00 <--"),
    ]

    @Test(arguments: samples)
    func encodesEachSampleOfRFC3492(unicode: String, punycode: String) {
        #expect(Punycode.encode(Array(unicode.unicodeScalars)) == punycode)
    }

    @Test(arguments: samples)
    func decodesEachSampleOfRFC3492(unicode: String, punycode: String) throws {
        let scalars = try #require(Punycode.decode(punycode))
        #expect(String(String.UnicodeScalarView(scalars)) == unicode)
        // Digits are case-insensitive.
        #expect(Punycode.decode(punycode.uppercased()).map { $0.count } == scalars.count)
    }

    @Test(arguments: ["b\u{FC}cher", "m\u{FC}nchen"])
    func decodesWhatItEncodes(label: String) throws {
        let encoded = try #require(Punycode.encode(Array(label.unicodeScalars)))
        #expect(Punycode.decode(encoded).map { String(String.UnicodeScalarView($0)) } == label)
    }

    @Test(arguments: ["99999999999999999999", "a-\u{E9}", "-!", "zzzzzzzzzzzzzzzzzzzzzzzz"])
    func refusesWhatIsNotPunycode(text: String) {
        #expect(Punycode.decode(text) == nil)
    }

    @Test func unicodeAndASCIICompatibleSpellingsOfADomainAreOneDomain() throws {
        let fold = AccountFields.fold
        #expect(DomainName.canonical("xn--bcher-kva.example", map: fold) == "b\u{FC}cher.example")
        #expect(DomainName.canonical("b\u{FC}cher.example", map: fold) == "b\u{FC}cher.example")
        // NFD `münchen` and its ASCII spelling.
        let nfd = try #require(try AccountFields.canonicalEmail("u@mu\u{308}nchen.de"))
        #expect(try AccountFields.canonicalEmail("u@xn--mnchen-3ya.de") == nfd)
        #expect(try AccountFields.canonicalEmail("u@XN--MNCHEN-3YA.DE") == nfd)
        // A label IDNA never writes (all ASCII), and Punycode that does not decode.
        #expect(DomainName.canonical("xn--abc-.example", map: fold) == nil)
        #expect(DomainName.canonical("xn--99999999999999999.example", map: fold) == nil)
        // A label longer than DNS allows once encoded.
        #expect(DomainName.canonical(String(repeating: "\u{FC}", count: 60) + ".example", map: fold) == nil)
    }
}

/// Labels as a browser shows them: one script, or a combination one language writes in.
@Suite struct DomainScriptTests {
    static func canonical(_ domain: String) -> String? { DomainName.canonical(domain, map: AccountFields.fold) }

    @Test func labelMixingLatinWithCyrillicOrGreekIsRefused() {
        #expect(Self.canonical("paypal.example") == "paypal.example")
        #expect(Self.canonical("p\u{430}ypal.example") == nil)
        #expect(Self.canonical("xn--pypal-4ve.example") == nil)
        #expect(Self.canonical("paypa\u{3B9}.example") == nil)
        #expect(Self.canonical("\u{440}\u{430}\u{443}\u{440}\u{430}\u{4CF}.example") == nil)
    }

    @Test func labelInOneScriptOrInAJapaneseChineseOrKoreanMixIsKept() {
        for domain in [
            "b\u{FC}cher.example", "\u{43F}\u{440}\u{438}\u{43C}\u{435}\u{440}.example",
            "\u{440}\u{430}\u{443}.\u{440}\u{444}", "\u{65E5}\u{672C}\u{3054}jp.example", "\u{30C6}\u{30B9}\u{30C8}.jp",
            "\u{D55C}\u{AD6D}\u{C5B4}.example", "\u{4E2D}\u{6587}\u{3105}.example", "abc-123.example",
            "\u{915}\u{93F}\u{924}\u{93E}\u{92C}.example",
        ] {
            #expect(Self.canonical(domain) != nil, "\(domain)")
        }
        #expect(Self.canonical("\u{5B89}\u{3131}\u{3042}.example") == nil)
    }
}
