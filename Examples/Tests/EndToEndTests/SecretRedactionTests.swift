import AppCore
import Foundation
import Testing
import UsersAPI

@Suite struct SecretRedactionTests {
    @Test func tokenEchoedByTheServerIsRedactedFromTheError() async throws {
        try await withMisbehavingServer(.echoAuthorization) { server in
            let container = TestAppDependency(baseURL: server.baseURL)
            let token = Secret("tok-3f9a0c-very-secret")
            let error: UsersError
            do throws(UsersError) {
                _ = try await container.resolveUsersWorker().fetchCurrent(token: token)
                Issue.record("the request should have failed")
                return
            } catch let caught {
                error = caught
            }
            #expect(error == .http(.status(code: 500, body: "rejected credentials Bearer <redacted>")))
            for text in [error.description, String(reflecting: error), "\(error)", String(describing: error)] {
                #expect(!text.contains(token.revealed))
            }
            var dumped = ""
            dump(error, to: &dumped)
            #expect(!dumped.contains(token.revealed))
        }
    }

    @Test func failedLogInNamesNeitherPasswordNorToken() async throws {
        try await withUsersServer { server in
            let container = TestAppDependency(baseURL: server.baseURL)
            let password = Secret("hunter2-hunter2")
            let authentication = container.resolveAuthenticationWorker()
            let session = try await authentication.signUp(name: "Ada", email: "ada@example.com", password: password)
            do throws(AuthenticationError) {
                _ = try await authentication.logIn(email: "ada@example.com", password: Secret("wrong-password"))
                Issue.record("the log-in should have failed")
            } catch {
                var dumped = ""
                dump(error, to: &dumped)
                for text in [error.description, String(reflecting: error), dumped] {
                    #expect(!text.contains(password.revealed))
                    #expect(!text.contains("wrong-password"))
                    #expect(!text.contains(session.token.revealed))
                }
            }
            var dumpedSession = ""
            dump(session, to: &dumpedSession)
            for text in [session.description, String(reflecting: session), dumpedSession] {
                #expect(!text.contains(session.token.revealed))
            }
        }
    }
}
