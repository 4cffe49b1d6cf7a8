import Foundation
import Testing

@testable import HTTPServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Response validation, decoding and error mapping, without a server.
@Suite struct HTTPServiceResponseTests {
    private let service = HTTPService(
        configuration: HTTPConfiguration(baseURL: URL(string: "https://api.example.com")!, maximumResponseBytes: 64)
    )

    private func response(_ status: Int, headers: [String: String] = [:]) -> HTTPURLResponse {
        HTTPURLResponse(
            url: URL(string: "https://api.example.com/users")!,
            statusCode: status,
            httpVersion: "HTTP/1.1",
            headerFields: headers
        )!
    }

    @Test func successfulResponseReturnsItsBody() throws {
        let data = Data(#"{"ok":true}"#.utf8)
        #expect(try service.validate(data: data, response: response(200)) == data)
        #expect(try service.validate(data: Data(), response: response(204)) == Data())
    }

    @Test func errorStatusCarriesTheServersMessage() {
        #expect(throws: HTTPError.status(code: 409, body: "taken")) {
            try service.validate(data: Data(#"{"error":"taken"}"#.utf8), response: response(409))
        }
        #expect(throws: HTTPError.status(code: 502, body: "Bad Gateway")) {
            try service.validate(data: Data("  Bad Gateway\n".utf8), response: response(502))
        }
        #expect(throws: HTTPError.status(code: 500, body: "")) {
            try service.validate(data: Data(), response: response(500))
        }
    }

    @Test func bodyOverTheLimitIsTooLarge() {
        #expect(throws: HTTPError.responseTooLarge(limit: 64)) {
            try service.validate(data: Data(count: 65), response: response(200))
        }
    }

    @Test func contentLengthOverTheLimitIsTooLargeEvenWithAShortBody() {
        #expect(throws: HTTPError.responseTooLarge(limit: 64)) {
            try service.validate(data: Data(count: 10), response: response(200, headers: ["Content-Length": "100000"]))
        }
    }

    @Test func responseThatIsNotHTTPIsATransportError() {
        let plain = URLResponse(
            url: URL(string: "https://api.example.com")!,
            mimeType: nil,
            expectedContentLength: 0,
            textEncodingName: nil
        )
        #expect(throws: HTTPError.transport("not an HTTP response")) {
            try service.validate(data: Data(), response: plain)
        }
    }

    @Test func errorTextRedactsEchoedSecretsAndStaysShort() {
        let echoed = Data(#"{"error":"bad password hunter2 for token tok-9"}"#.utf8)
        #expect(
            HTTPService.errorText(from: echoed, redacting: ["hunter2", "tok-9"])
                == "bad password <redacted> for token <redacted>"
        )
        let long = Data(String(repeating: "x", count: 5_000).utf8)
        #expect(HTTPService.errorText(from: long).count <= 513)
    }

    @Test func emptyBodyIsEmptyBody() {
        #expect(throws: HTTPError.emptyBody) {
            let _: User = try service.decode(Data())
        }
    }

    @Test func wrongJSONIsMalformedResponse() {
        #expect(throws: HTTPError.malformedResponse("expected User")) {
            let _: User = try service.decode(Data(#"{"id":1}"#.utf8))
        }
        #expect(throws: HTTPError.malformedResponse("expected User")) {
            let _: User = try service.decode(Data(#"{"id":"#.utf8))
        }
    }

    @Test func urlErrorsMapToTypedErrors() {
        #expect(HTTPService.map(URLError(.timedOut)) == .timedOut)
        #expect(HTTPService.map(URLError(.cancelled)) == .cancelled)
        #expect(HTTPService.map(CancellationError()) == .cancelled)
        #expect(HTTPService.map(HTTPError.responseTooLarge(limit: 3)) == .responseTooLarge(limit: 3))
        #expect(HTTPService.map(URLError(.cannotConnectToHost)) == .connectionFailed("connection refused"))
        #expect(HTTPService.map(URLError(.cannotFindHost)) == .connectionFailed("host not found"))
        guard case .transport = HTTPService.map(URLError(.badServerResponse)) else {
            Issue.record("badServerResponse should be transport")
            return
        }
    }

    @Test func invalidBaseURLFailsBeforeSending() async {
        let broken = HTTPService(configuration: HTTPConfiguration(baseURL: URL(string: "mailto:someone@example.com")!))
        await #expect(throws: HTTPError.self) {
            let _: User = try await broken.get("/users/me", token: nil)
        }
    }
}
