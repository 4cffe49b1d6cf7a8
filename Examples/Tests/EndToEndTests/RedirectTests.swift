import AppCore
import Foundation
import Testing
import UsersAPI

@Suite struct RedirectTests {
    @Test func bearerTokenIsDroppedWhenARedirectLeavesTheOrigin() async throws {
        try await withMisbehavingServer(.echoAuthorization) { elsewhere in
            try await withMisbehavingServer(.redirect(to: elsewhere.baseURL.absoluteString)) { server in
                let container = TestAppDependency(baseURL: server.baseURL)
                // The other server is another origin (another port): it must not see the token.
                #expect(
                    await fetchCurrentFailure(container)
                        == .http(.status(code: 500, body: "rejected credentials none"))
                )
            }
        }
    }

    @Test func redirectToPlainHTTPElsewhereIsRefused() async throws {
        try await withMisbehavingServer(.redirect(to: "http://users.example.invalid")) { server in
            let container = TestAppDependency(baseURL: server.baseURL)
            let before = try await seedCache(container)
            #expect(await fetchCurrentFailure(container) == .http(.insecureTransport(host: "users.example.invalid")))
            #expect(container.cacheFileBytes() == before)
        }
    }
}
