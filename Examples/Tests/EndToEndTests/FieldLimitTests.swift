import Foundation
import Testing
import UsersAPI

/// Fields are bounded in UTF-8 bytes, not characters: one character can carry any number of
/// combining marks.
@Suite struct FieldLimitTests {
    /// `count` characters, each an "e" with `marks` combining acute accents (2 bytes each).
    static func heavy(_ count: Int, marks: Int) -> String {
        String(repeating: "e" + String(repeating: "\u{301}", count: marks), count: count)
    }

    @Test func passwordOverTheByteLimitIsRejectedThoughShortInCharacters() async throws {
        try await withUsersServer { server in
            // 100 characters, 1,100 bytes.
            let password = Self.heavy(100, marks: 5)
            let reply = try await RawHTTP.send(
                "POST",
                "/auth/signup",
                to: server,
                json: ["name": "Ada", "email": "ada@example.com", "password": password]
            )
            #expect(reply.status == 400)
            #expect(reply.text.contains("at most 1024 bytes in UTF-8"))
        }
    }

    @Test func nameAndEmailOverTheirByteLimitsAreRejected() async throws {
        try await withUsersServer { server in
            let longName = try await RawHTTP.send(
                "POST",
                "/auth/signup",
                to: server,
                json: ["name": Self.heavy(50, marks: 10), "email": "ada@example.com", "password": "password-1"]
            )
            #expect(longName.status == 400)
            let longEmail = try await RawHTTP.send(
                "POST",
                "/auth/signup",
                to: server,
                json: [
                    "name": "Ada", "email": "a" + Self.heavy(1, marks: 130) + "@example.com", "password": "password-1",
                ]
            )
            #expect(longEmail.status == 400)
            #expect(longEmail.text.contains("not valid"))
        }
    }

    @Test func bodyOverSixteenKibibytesIsRefusedBeforeDecoding() async throws {
        try await withUsersServer { server in
            let reply = try await RawHTTP.send(
                "POST",
                "/auth/signup",
                to: server,
                json: ["name": Self.heavy(200, marks: 50), "email": "ada@example.com", "password": "password-1"]
            )
            #expect(reply.status == 413)
        }
    }

    @Test func listIsPagedAndEveryPageIsBounded() async throws {
        try await withUsersServer { server in
            var token = ""
            for index in 0..<60 {
                token = try await RawHTTP.signUp("user\(index)@example.com", to: server)
            }
            let first = try await RawHTTP.send("GET", "/users", to: server, token: token)
            let firstPage = try JSONDecoder().decode([Listed].self, from: first.body)
            #expect(first.status == 200)
            #expect(firstPage.count == 50)
            #expect(firstPage.first?.email == "user0@example.com")
            let link = try #require(first.headers["link"])
            let next = try #require(link.split(separator: ">").first.map { String($0.dropFirst()) })
            let second = try await RawHTTP.send("GET", next, to: server, token: token)
            let secondPage = try JSONDecoder().decode([Listed].self, from: second.body)
            #expect(secondPage.map(\.email) == (50..<60).map { "user\($0)@example.com" })
            #expect(second.headers["link"] == nil)

            let small = try await RawHTTP.send("GET", "/users?limit=7", to: server, token: token)
            #expect(try JSONDecoder().decode([Listed].self, from: small.body).count == 7)
            #expect(try await RawHTTP.send("GET", "/users?limit=1000", to: server, token: token).status == 400)
            #expect(try await RawHTTP.send("GET", "/users?limit=0", to: server, token: token).status == 400)
        }
    }

    private struct Listed: Decodable { let id, name, email: String }
}
