import Foundation
import Testing

@testable import HTTPServiceKit

/// Every way a value can be turned into text, for checking that secrets stay out of it.
private func renderings(of value: Any) -> [String] {
    var dumped = ""
    dump(value, to: &dumped)
    return [String(describing: value), String(reflecting: value), "\(value)", dumped]
}

@Suite struct SecretTests {
    private let password = "correct-horse-battery-staple"
    private let token = "tok-5e1f7a9b2c"

    @Test func secretNeverPrintsItsValue() {
        let secret = Secret(password)
        for text in renderings(of: secret) {
            #expect(!text.contains(password))
        }
        #expect(secret.description == "<redacted>")
        #expect(secret.debugDescription == "Secret(<redacted>)")
    }

    @Test func secretStillEncodesItsValueForRequestBodies() throws {
        let data = try JSONEncoder().encode(Credentials(email: "a@b.c", password: Secret(password)))
        #expect(String(decoding: data, as: UTF8.self).contains(password))
        let decoded = try JSONDecoder().decode(Credentials.self, from: data)
        #expect(decoded.password.revealed == password)
    }

    @Test func errorsNeverCarrySecretsTheServerEchoed() {
        let echoed = Data(#"{"error":"password \#(password) and token \#(token) rejected"}"#.utf8)
        let error = HTTPError.status(
            code: 400,
            body: HTTPService.errorText(from: echoed, redacting: [password, token])
        )
        let wrapped: [Any] = [error, [error], Optional(error) as Any]
        for value in wrapped {
            for text in renderings(of: value) {
                #expect(!text.contains(password))
                #expect(!text.contains(token))
                #expect(text.contains("<redacted>"))
            }
        }
    }

    @Test func requestBodySecretsAreCollectedForRedaction() throws {
        let encoded = try HTTPService.encode(SignUpRequest(name: "Ada", email: "a@b.c", password: Secret(password)))
        #expect(encoded.secrets == [password])
        let plain = try HTTPService.encode(EmptyBody())
        #expect(plain.secrets.isEmpty)
    }
}
