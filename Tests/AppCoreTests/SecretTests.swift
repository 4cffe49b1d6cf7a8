import Foundation
import Testing

@testable import AppCore

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
        let wrapped: [Any] = [error, AuthenticationError.http(error), UsersError.http(error)]
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
