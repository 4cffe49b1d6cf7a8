import Foundation
import Testing
import UsersAPI

/// One person, one account: an email reaches the store in one spelling, and text the store
/// would cut short never reaches it.
@Suite struct AccountIdentityTests {
    static let password = "password-1"

    static func signUp(_ email: String, name: String = "Ada", on server: UsersServer) async throws -> RawHTTP.Reply {
        try await RawHTTP.send(
            "POST",
            "/auth/signup",
            to: server,
            json: ["name": name, "email": email, "password": password]
        )
    }

    static func logIn(_ email: String, on server: UsersServer) async throws -> RawHTTP.Reply {
        try await RawHTTP.send("POST", "/auth/login", to: server, json: ["email": email, "password": password])
    }

    static func user(in reply: RawHTTP.Reply) throws -> [String: String] {
        let object = try JSONSerialization.jsonObject(with: reply.body) as? [String: Any]
        return try #require(object?["user"] as? [String: String])
    }

    @Test func emailWithANulIsRefusedAtSignUpAndLogInAndNeverOpensAnotherAccount() async throws {
        try await withUsersServer { server in
            let victim = try await Self.signUp("victim@x.io", on: server)
            #expect(victim.status == 201)
            // SQLite reads text up to a NUL: this spelling would find the victim's row.
            let impostor = try await Self.signUp("victim@x.io\u{0}evil", on: server)
            #expect(impostor.status == 400)
            #expect(impostor.text.contains("email must not contain control characters"))
            let logIn = try await Self.logIn("victim@x.io\u{0}evil", on: server)
            #expect(logIn.status == 400)
            #expect(!logIn.text.contains("token"))
            for control in ["\u{1}", "\u{7F}", "\u{85}", "\u{1B}[31m"] {
                #expect(try await Self.signUp("a\(control)b@x.io", on: server).status == 400)
            }
        }
    }

    @Test func nameWithAControlCharacterIsRefusedNamingTheField() async throws {
        try await withUsersServer { server in
            for name in ["a\u{0}b", "line\nbreak", "bell\u{7}", "csi\u{9B}"] {
                let reply = try await Self.signUp("ada@x.io", name: name, on: server)
                #expect(reply.status == 400, "\(name.debugDescription)")
                #expect(reply.text.contains("name must not contain control characters"))
            }
            // Nothing was stored: the address is still free.
            #expect(try await Self.signUp("ada@x.io", name: "Ada Lovelace", on: server).status == 201)
        }
    }

    @Test func pagingCursorWithANulIsRefused() async throws {
        try await withUsersServer { server in
            let token = try await RawHTTP.signUp("ada@x.io", to: server)
            let reply = try await RawHTTP.send("GET", "/users?after=abc%00def", to: server, token: token)
            #expect(reply.status == 400)
            #expect(reply.text.contains("after cursor"))
        }
    }

    /// Pairs of spellings of one address: the first signs up, the second is the same person.
    static let lookalikes: [(String, String)] = [
        ("jos\u{E9}@x.io", "jose\u{301}@x.io"),  // composed and decomposed é
        ("ken@x.io", "\u{212A}en@x.io"),  // Kelvin sign
        ("ken2@x.io", "\u{FF4B}en2@x.io"),  // fullwidth k
        ("imran@x.io", "\u{131}mran@x.io"),  // dotless i
        ("IMRAN2@x.io", "\u{130}mran2@x.io"),  // dotted capital I
        ("fish@x.io", "\u{FB01}sh@x.io"),  // fi ligature
        ("zero@x.io", "ze\u{200B}ro@x.io"),  // zero-width space
        ("joiner@x.io", "join\u{200D}er@x.io\u{FEFF}"),  // zero-width joiner, byte-order mark
        ("dot@x.io", "dot@x.io."),  // the DNS root's trailing dot
        ("strasse@x.io", "STRA\u{DF}E@X.IO"),  // sharp s folds to ss
        ("fullwidth@x.io", "fullwidth\u{FF20}x.io"),  // fullwidth commercial at
        ("u@b\u{FC}cher.example", "u@xn--bcher-kva.example"),  // a Unicode domain and its IDNA spelling
        ("u@xn--bcher-kva.example", "U@B\u{DC}CHER.example"),  // and the other way round
        ("u@mu\u{308}nchen.de", "u@xn--mnchen-3ya.de"),  // decomposed (NFD) ü and its IDNA spelling
        ("u@m\u{FC}nchen.de", "u@XN--MNCHEN-3YA.DE"),  // composed ü, IDNA in capitals
        ("u@\u{4F8B}\u{3048}.jp", "u@xn--r8jz45g.jp"),  // a Japanese label
        ("dots@b\u{FC}cher.example", "dots@b\u{FC}cher\u{3002}example"),  // the ideographic full stop
    ]

    @Test(arguments: lookalikes)
    func lookalikeSpellingsAreOneAccount(signUpSpelling: String, otherSpelling: String) async throws {
        try await withUsersServer { server in
            let first = try await Self.signUp(signUpSpelling, on: server)
            #expect(first.status == 201)
            let second = try await Self.signUp(otherSpelling, on: server)
            #expect(second.status == 409)
            let logIn = try await Self.logIn(otherSpelling, on: server)
            #expect(logIn.status == 200)
            #expect(try Self.user(in: logIn)["id"] == Self.user(in: first)["id"])
            // The account shows the one spelling it is stored under.
            #expect(try Self.user(in: logIn)["email"] == Self.user(in: first)["email"])
        }
    }

    @Test func storedSpellingIsTheCanonicalOne() async throws {
        try await withUsersServer { server in
            let reply = try await Self.signUp("  \u{FF2B}ELVIN\u{200B}@Example.COM.  ", on: server)
            #expect(reply.status == 201)
            #expect(try Self.user(in: reply)["email"] == "kelvin@example.com")
            #expect(try await Self.signUp("a@b..", on: server).status == 400)
            #expect(try await Self.signUp("a@.b.c", on: server).status == 400)
        }
    }

    @Test func domainThatIsNotValidIDNAIsRefused() async throws {
        try await withUsersServer { server in
            for email in ["u@xn--abc-.example", "u@xn--99999999999999999.example", "u@xn--a\u{E9}.example"] {
                let reply = try await Self.signUp(email, on: server)
                #expect(reply.status == 400, "\(email)")
            }
        }
    }

    @Test func nameLosesItsBidiControlsAndInvisibleFormatCharacters() async throws {
        try await withUsersServer { server in
            // Overrides, isolates, marks, a byte-order mark, a zero-width joiner and tag characters.
            let sent =
                "\u{202E}Ada\u{2066}\u{2067}\u{2068}\u{2069}\u{200F}\u{61C} Love\u{200D}lace\u{FEFF}\u{E0041}\u{E007F}"
            let reply = try await Self.signUp("ada@x.io", name: sent, on: server)
            #expect(reply.status == 201)
            let name = try #require(try Self.user(in: reply)["name"])
            #expect(name == "Ada Lovelace")
            #expect(!name.unicodeScalars.contains { $0.properties.generalCategory == .format })
        }
    }

    @Test(arguments: [
        "\u{200D}", "\u{202E}\u{2066}", "\u{FEFF} \u{200B}", "\u{3164}", "\u{E0041}\u{E0042}", "\u{301}",
        "\u{2800}", "\u{FFFC}", "\u{2800}\u{2800} \u{FFFC}", "\u{1D159}",
    ])
    func nameThatShowsNothingIsRefused(name: String) async throws {
        try await withUsersServer { server in
            let reply = try await Self.signUp("ada@x.io", name: name, on: server)
            #expect(reply.status == 400)
            #expect(reply.text.contains("name must") && reply.text.contains("visible"))
        }
    }

    /// Labels a browser would show as Punycode because they mix scripts (UTS #39, Highly
    /// Restrictive), or spell a Latin word in Cyrillic under a Latin top-level domain.
    static let lookalikeDomains = [
        "u5@p\u{430}ypal.example",  // Cyrillic а among Latin letters
        "u5@xn--pypal-4ve.example",  // the same label as its Punycode
        "u5@paypa\u{3B9}.example",  // Greek iota
        "u5@\u{440}\u{430}\u{443}\u{440}\u{430}\u{4CF}.example",  // раурaӏ: Cyrillic letters with Latin twins
        "u5@\u{5B89}\u{5BA4}\u{3131}\u{3042}.example",  // Han, Hangul and Hiragana in one label
    ]

    @Test func mixedScriptDomainIsRefusedAndNeverOpensASecondAccount() async throws {
        try await withUsersServer { server in
            #expect(try await Self.signUp("u5@paypal.example", on: server).status == 201)
            for email in Self.lookalikeDomains {
                let reply = try await Self.signUp(email, on: server)
                #expect(reply.status == 400, "\(email)")
                #expect(try await Self.logIn(email, on: server).status != 200, "\(email)")
            }
            // Single-script and CJK labels, and Cyrillic under a Cyrillic top-level domain, are fine.
            for email in [
                "a@b\u{FC}cher.example", "b@\u{43F}\u{440}\u{438}\u{43C}\u{435}\u{440}.example",
                "c@\u{440}\u{430}\u{443}.\u{440}\u{444}", "d@\u{65E5}\u{672C}\u{3054}jp.example",
                "e@\u{D55C}\u{AD6D}\u{C5B4}.example", "f@\u{3b1}\u{3b2}\u{3b3}.example",
            ] {
                #expect(try await Self.signUp(email, on: server).status == 201, "\(email)")
            }
        }
    }

    /// Signs up over a raw socket, for addresses URLSession cannot reach on Linux (`[::1]`).
    static func rawSignUp(on server: UsersServer, _ email: String, name: String) async throws -> String {
        let body = try JSONSerialization.data(withJSONObject: ["name": name, "email": email, "password": password])
        let socket = try RawSocket(port: server.port, host: "::1", timeout: 10)
        try socket.send(
            "POST /auth/signup HTTP/1.1\r\nHost: [::1]\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n" + String(decoding: body, as: UTF8.self))
        return await socket.reply(within: 20)
    }

    @Test func mixedScriptDomainAndBlankNameAreRefusedOverIPv6Loopback() async throws {
        try await withUsersServer(host: "::1") { server in
            let created = try await Self.rawSignUp(on: server, "u5@paypal.example", name: "Ada")
            #expect(created.hasPrefix("HTTP/1.1 201"))
            #expect(
                try await Self.rawSignUp(on: server, "u5@p\u{430}ypal.example", name: "Ada").hasPrefix("HTTP/1.1 400"))
            #expect(
                try await Self.rawSignUp(on: server, "u6@paypal.example", name: "\u{2800}").hasPrefix("HTTP/1.1 400"))
            #expect(
                try await Self.rawSignUp(on: server, "u7@paypal.example", name: "\u{FFFC}").hasPrefix("HTTP/1.1 400"))
        }
    }
}
