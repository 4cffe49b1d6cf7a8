import AppCore
import Foundation
import Testing

@testable import HTTPServiceKit

/// Every way a value can be turned into text, for checking that secrets stay out of it.
private func renderings(of value: Any) -> [String] {
    var dumped = ""
    dump(value, to: &dumped)
    return [String(describing: value), String(reflecting: value), "\(value)", dumped]
}

/// AppCore's models that carry a `Secret` (HTTPServiceKit's) print none.
@Suite struct ModelSecretTests {
    private let password = "correct-horse-battery-staple"
    private let token = "tok-5e1f7a9b2c"

    @Test func modelsThatHoldSecretsNeverPrintThem() {
        let user = User(id: "u1", name: "Ada", email: "ada@example.com")
        let values: [Any] = [
            Session(token: Secret(token), user: user),
            SignUpRequest(name: "Ada", email: "ada@example.com", password: Secret(password)),
            Credentials(email: "ada@example.com", password: Secret(password)),
            [Secret(password), Secret(token)],
            Optional(Secret(token)) as Any,
        ]
        for value in values {
            for text in renderings(of: value) {
                #expect(!text.contains(password))
                #expect(!text.contains(token))
            }
        }
    }

    @Test func appCoreErrorsNeverCarrySecretsTheServerEchoed() {
        let echoed = Data(#"{"error":"password \#(password) and token \#(token) rejected"}"#.utf8)
        let error = HTTPError.status(
            code: 400, body: HTTPService.errorText(from: echoed, redacting: [password, token]))
        for value in [AuthenticationError.http(error), UsersError.http(error)] as [Any] {
            for text in renderings(of: value) {
                #expect(!text.contains(password))
                #expect(!text.contains(token))
                #expect(text.contains("<redacted>"))
            }
        }
    }
}
