import Foundation
import Testing

@testable import HTTPServiceKit

/// Secrets are redacted in every form the client put them on the wire, before any cut.
@Suite struct HTTPServiceRedactionTests {
    private let password = #"hunter2/pa"ss\word"#

    @Test func secretStraddlingTheCutIsRedactedWhole() {
        let token = "tok-5e1f7a9b2c3d4e5f"
        for offset in 500...511 {
            let body = Data((String(repeating: "x", count: offset) + token + " rejected").utf8)
            let text = HTTPService.errorText(from: body, redacting: [token])
            #expect(!text.contains("tok-5"), "token starting at \(offset) left a trace: \(text.suffix(20))")
            #expect(text.count <= 513)
        }
    }

    @Test func everyWireFormOfASecretIsRedacted() {
        let forms = [
            password,
            #"hunter2\/pa\"ss\\word"#,
            #"hunter2/pa\"ss\\word"#,
            "hunter2%2Fpa%22ss%5Cword",
        ]
        for form in forms {
            let text = HTTPService.errorText(from: Data("bad: \(form) !".utf8), redacting: [password])
            #expect(text == "bad: <redacted> !", "form \(form) gave \(text)")
        }
    }

    @Test func serverEchoingTheJSONRequestBodyLeaksNoPassword() async throws {
        try await withLoopbackServer(.echo(status: 400)) { server in
            let service = HTTPService(configuration: HTTPConfiguration(baseURL: server.baseURL, timeout: 10))
            let credentials = Credentials(email: "ada@example.com", password: Secret(password))
            let result: Result<Session, HTTPError> = await outcome { () async throws(HTTPError) -> Session in
                try await service.post("/auth/login", body: credentials, token: nil)
            }
            guard case .failure(.status(400, let body)) = result else {
                Issue.record("expected status 400, got \(result)")
                return
            }
            #expect(body.contains("ada@example.com"))
            #expect(body.contains("<redacted>"))
            #expect(!body.contains("hunter2"))
            #expect(!body.contains(#"ss\\word"#))
        }
    }
}
