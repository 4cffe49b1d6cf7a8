import Foundation
import Testing

@testable import HTTPServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Request building, without a server.
@Suite struct HTTPServiceRequestTests {
    private func service(
        _ base: String = "https://api.example.com",
        allowsInsecureHTTP: Bool = false,
        timeout: TimeInterval = 7
    ) -> HTTPService {
        HTTPService(
            configuration: HTTPConfiguration(
                baseURL: URL(string: base)!,
                timeout: timeout,
                allowsInsecureHTTP: allowsInsecureHTTP
            )
        )
    }

    private func build(
        _ service: HTTPService,
        _ path: String,
        method: String = "GET",
        body: (any Encodable)? = nil,
        token: Secret? = nil
    ) throws -> URLRequest {
        try service.makeRequest(method: method, path: path, body: body, token: token).request
    }

    @Test(arguments: [
        ("https://api.example.com", "/users/me", "https://api.example.com/users/me"),
        ("https://api.example.com/", "users/me", "https://api.example.com/users/me"),
        ("https://api.example.com/v1//", "/users", "https://api.example.com/v1/users"),
        ("http://127.0.0.1:8080", "/auth/login", "http://127.0.0.1:8080/auth/login"),
    ])
    func relativePathsResolveAgainstTheBaseURL(base: String, path: String, expected: String) throws {
        #expect(try build(service(base), path).url?.absoluteString == expected)
    }

    @Test func getRequestCarriesMethodAcceptAndTimeoutButNoBody() throws {
        let request = try build(service(timeout: 7), "/users", method: "GET")
        #expect(request.httpMethod == "GET")
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == nil)
        #expect(request.httpBody == nil)
        #expect(request.timeoutInterval == 7)
    }

    @Test func postRequestCarriesTheJSONBody() throws {
        let body = SignUpRequest(name: "Ada", email: "ada@example.com", password: Secret("pw-12345678"))
        let request = try build(service(), "/auth/signup", method: "POST", body: body)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let decoded = try JSONDecoder().decode(SignUpRequest.self, from: try #require(request.httpBody))
        #expect(decoded == body)
    }

    @Test func preparedRequestKnowsEverySecretItCarries() throws {
        let body = Credentials(email: "ada@example.com", password: Secret("pw-12345678"))
        let prepared = try service().makeRequest(
            method: "POST",
            path: "/auth/login",
            body: body,
            token: Secret("tok-1")
        )
        #expect(Set(prepared.secrets) == ["pw-12345678", "tok-1"])
    }

    @Test func plainHTTPToAnotherHostIsRefused() {
        #expect(throws: HTTPError.insecureTransport(host: "api.example.com")) {
            try build(service("http://api.example.com"), "/users")
        }
        #expect(throws: HTTPError.insecureTransport(host: "evil.example")) {
            try build(service("https://api.example.com"), "http://evil.example/steal")
        }
    }

    @Test func plainHTTPToAnotherHostIsAllowedWhenConfigured() throws {
        let request = try build(service("http://api.example.com", allowsInsecureHTTP: true), "/users")
        #expect(request.url?.scheme == "http")
    }

    @Test(arguments: ["http://127.0.0.1:9000", "http://localhost:9000", "http://127.3.2.1"])
    func plainHTTPToLoopbackIsAllowed(base: String) throws {
        #expect(try build(service(base), "/users").url != nil)
    }

    @Test(arguments: ["localhost", "LOCALHOST", "127.0.0.1", "127.255.0.9", "127.0.0.0", "::1", "[::1]"])
    func loopbackHostsAreRecognised(host: String) {
        #expect(HTTPOrigin.isLoopback(host))
    }

    @Test(arguments: [
        "127.0.0.1.example.com", "127.evil.example", "128.0.0.1", "127.0.0", "127.0.0.1.1", "example.com", "",
        // Spellings a resolver reads differently from this check: octal, fully qualified (DNS).
        "127.08.0.1", "0127.0.0.1", "127.0.0.01", "127.0.0.1.", "localhost.", "localhost..", "127.0.0.+1",
        // IPv6 addresses other than ::1, and the IPv4-mapped loopback (a resolver-dependent spelling).
        "::2", "[::]", "::ffff:127.0.0.1", "fe80::1",
    ])
    func lookalikeHostsAreNotLoopback(host: String) {
        #expect(!HTTPOrigin.isLoopback(host))
    }

    @Test(arguments: ["http://localhost.:9000", "http://127.0.0.1.:9000", "http://127.08.0.1:9000"])
    func plainHTTPToAnAmbiguousLoopbackSpellingIsRefused(base: String) throws {
        #expect(throws: HTTPError.self) { try build(service(base), "/users") }
        #expect(throws: HTTPError.self) { try build(service(), base + "/users") }
    }

    #if canImport(FoundationNetworking)
        /// FoundationNetworking cannot load a URL whose host is an IPv6 literal (URLError -1000).
        @Test(arguments: ["http://[::1]:9000", "https://[::1]:9000", "http://[0:0:0:0:0:0:0:1]:9000"])
        func ipv6LiteralHostIsRefusedWithAnError(base: String) throws {
            let host = try #require(URL(string: base)?.host)
            #expect(throws: HTTPError.unsupportedHost(host)) { try build(service(base), "/users") }
            #expect(throws: HTTPError.unsupportedHost(host)) { try build(service(), base + "/users") }
        }
    #endif

    @Test func requestAsksForTheBodyUncompressed() throws {
        #expect(try build(service(), "/users").value(forHTTPHeaderField: "Accept-Encoding") == "identity")
    }

    @Test func unsupportedSchemeIsInvalidURL() {
        #expect(throws: HTTPError.invalidURL("ftp://api.example.com/users")) {
            try build(service(), "ftp://api.example.com/users")
        }
    }

    @Test func credentialsInAURLNeverReachTheErrorMessage() {
        #expect(throws: HTTPError.invalidURL("ftp://files.example.com/x")) {
            try build(service(), "ftp://admin:hunter2@files.example.com/x")
        }
    }

    @Test func bearerTokenGoesToTheBaseURLsOrigin() throws {
        let token = Secret("tok-1")
        let relative = try build(service(), "/users/me", token: token)
        #expect(relative.value(forHTTPHeaderField: "Authorization") == "Bearer tok-1")
        let absolute = try build(service(), "https://API.example.com:443/users/me", token: token)
        #expect(absolute.value(forHTTPHeaderField: "Authorization") == "Bearer tok-1")
    }

    @Test(arguments: [
        "https://evil.example/users/me",
        "https://api.example.com.evil.example/users/me",
        "https://api.example.com:8443/users/me",
        "http://localhost/users/me",
    ])
    func bearerTokenNeverGoesToAnotherOrigin(url: String) throws {
        let request = try build(service(), url, token: Secret("tok-1"))
        #expect(request.value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test func noTokenMeansNoAuthorizationHeader() throws {
        #expect(try build(service(), "/users").value(forHTTPHeaderField: "Authorization") == nil)
    }
}
