internal import Foundation
internal import HTTPTypes

/// The rules for the name and email an account is made of, applied at the edge: sign-up and
/// log-in read an email through the same ``canonicalEmail(_:)``, so every spelling one accepts
/// the other accepts too, and each spelling names one account.
enum AccountFields {
    /// Limits in UTF-8 bytes as well as characters: one "character" can be any number of
    /// combining marks, so only a byte limit bounds the memory and hashing work a field costs.
    static let maximumNameCharacters = 100
    static let maximumNameBytes = 400
    static let maximumEmailBytes = 254
    /// What an email may take before normalisation: compatibility mapping can lengthen text
    /// (`ﬁ` is one scalar, `fi` two), so the raw bound is looser and the result is bounded again.
    static let maximumRawEmailBytes = 4 * maximumEmailBytes

    /// A trimmed display name, without invisible format characters.
    ///
    /// Format characters (Unicode general category Cf) are removed: bidirectional overrides,
    /// embeddings, isolates and marks (U+202A–202E, U+2066–2069, U+200E, U+200F, U+061C), which
    /// would reorder the text around the name wherever it is shown; zero-width joiners and
    /// spaces, the byte-order mark and tag characters, which show nothing. What is left must
    /// show something: a letter, digit, punctuation mark or symbol that a font draws as more
    /// than blank space (not the braille blank U+2800 or U+FFFC, see ``blanks``).
    /// - Throws: ``APIError`` 400 naming the field when it is empty, too long, holds a control
    ///   character (NUL among them: SQLite would keep only the text before it), or shows nothing.
    static func validName(_ raw: String) throws(APIError) -> String {
        let tooLong = APIError(
            .badRequest,
            "the name must have 1 to \(maximumNameCharacters) characters and at most \(maximumNameBytes) bytes in UTF-8"
        )
        // Bytes first: counting characters walks the whole string.
        guard raw.utf8.count <= maximumNameBytes * 2 else { throw tooLong }
        var visible = String.UnicodeScalarView()
        visible.append(contentsOf: raw.unicodeScalars.lazy.filter { $0.properties.generalCategory != .format })
        let name = String(visible).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !containsControlCharacter(name) else { throw controlCharacter(in: "name") }
        guard !name.isEmpty || raw.isEmpty,
            name.unicodeScalars.isEmpty || name.unicodeScalars.contains(where: isVisible)
        else {
            throw APIError(.badRequest, "the name must contain a visible character (a letter, digit or symbol)")
        }
        guard !name.isEmpty, name.utf8.count <= maximumNameBytes, name.count <= maximumNameCharacters else {
            throw tooLong
        }
        return name
    }

    /// Whether `scalar` draws something by itself: a letter, a digit, a punctuation mark, a
    /// symbol or a spacing mark, and not a default-ignorable code point (Hangul fillers are
    /// letters that draw nothing) nor one of the ``blanks``.
    static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        guard !scalar.properties.isDefaultIgnorableCodePoint, !blanks.contains(scalar) else { return false }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .spacingMark, .decimalNumber, .letterNumber, .otherNumber,
            .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation,
            .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return true
        default:
            return false
        }
    }

    /// Letters and symbols by category that fonts draw as empty space or as nothing: the
    /// braille pattern blank (U+2800), the object replacement character (U+FFFC, a stand-in for
    /// an embedded object that is not there), the interlinear annotation marks (U+FFF9–FFFB),
    /// the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), the musical null notehead
    /// (U+1D159), and the Khitan small script filler (U+16FE4).
    static let blanks: Set<Unicode.Scalar> = [
        "\u{2800}", "\u{FFFC}", "\u{FFF9}", "\u{FFFA}", "\u{FFFB}", "\u{115F}", "\u{1160}", "\u{3164}",
        "\u{FFA0}", "\u{1D159}", "\u{16FE4}",
    ]

    /// The one spelling of an email address under which its account is stored and found.
    ///
    /// Lookalike spellings of one address meet here, so a person has one account whichever
    /// way the address was typed:
    /// - surrounding white space is trimmed;
    /// - default-ignorable code points (zero-width space and joiners, soft hyphen, byte-order
    ///   mark, bidirectional controls) are removed;
    /// - dotted and dotless `I`/`i` (`İ`, `ı`) become `i`: Turkish case rules pair them
    ///   differently from every other locale, so the same typed address would otherwise
    ///   depend on the client's language;
    /// - Unicode NFKC, then full case folding, then NFKC again (Unicode's NFKC_Casefold):
    ///   composed and decomposed `é`, the Kelvin sign and fullwidth `ｋ` and `k`, `ﬁ` and `fi`,
    ///   `ß` and `ss`, upper and lower case all become one;
    /// - the ideographic full stops `。` and `｡` separate labels as `.` does;
    /// - the domain is compared in one IDNA form: each label spelled in its ASCII-compatible
    ///   encoding (`xn--bcher-kva`) is decoded and mapped like the rest, so it is stored as the
    ///   same Unicode label (`bücher`) whichever spelling, composed or decomposed, was typed;
    /// - one trailing dot after the domain (`example.com.`, the DNS root) is removed.
    ///
    /// The local part is folded too: mail servers may treat case as significant, but no two
    /// people should hold accounts that differ only by it.
    /// - Returns: The canonical address, or `nil` when it is not a plausible address (the
    ///   caller decides whether that is a 400 or a failed log-in).
    /// - Throws: ``APIError`` 400 naming the field when the address holds a control character
    ///   (such as NUL, which SQLite would cut the address at).
    static func canonicalEmail(_ raw: String) throws(APIError) -> String? {
        guard raw.utf8.count <= maximumRawEmailBytes else { return nil }
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !containsControlCharacter(trimmed) else { throw controlCharacter(in: "email") }
        let folded = fold(trimmed)
        let parts = folded.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return nil }
        var domain = parts[1]
        if domain.hasSuffix(".") { domain.removeLast() }
        guard let canonicalDomain = DomainName.canonical(domain, map: fold),
            canonicalDomain.split(separator: ".").count >= 2
        else { return nil }
        let email = "\(parts[0])@\(canonicalDomain)"
        guard email.utf8.count <= maximumEmailBytes, !email.contains(where: \.isWhitespace) else { return nil }
        return email
    }

    /// Default-ignorable code points removed, `İ` and `ı` as `i`, ideographic full stops as
    /// `.`, then NFKC_Casefold (NFKC, full case folding, NFKC).
    static func fold(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !scalar.properties.isDefaultIgnorableCodePoint {
            switch scalar {
            case "\u{130}", "\u{131}": scalars.append("i")
            case "\u{3002}", "\u{FF61}": scalars.append(".")
            default: scalars.append(scalar)
            }
        }
        return String(scalars).precomposedStringWithCompatibilityMapping
            .folding(options: [.caseInsensitive], locale: nil)
            .precomposedStringWithCompatibilityMapping
    }

    /// Whether `text` holds a C0 or C1 control character or DEL (Unicode category Cc).
    static func containsControlCharacter(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    static func controlCharacter(in field: String) -> APIError {
        APIError(.badRequest, "the \(field) must not contain control characters (such as NUL or a line break)")
    }
}
