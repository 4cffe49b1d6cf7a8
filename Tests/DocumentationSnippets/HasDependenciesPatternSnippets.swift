import AppCore
import DependencyKit
import DependencyKitTesting
import Testing

// The samples of TheHasDependenciesPattern.md.

// snippet: pattern-consumer
struct LoginViewModel: HasDependencies {
    lazy var worker = dependencies.resolveAuthenticationWorker()

    mutating func logIn(email: String, password: String) async throws -> Session {
        try await worker.logIn(email: email, password: Secret(password))
    }
}
// end-snippet

// snippet: pattern-static
enum SessionRestorer: HasDependencies {
    static func cachedUser() async -> User? {
        await dependencies.resolveUsersWorker().cachedCurrent()
    }
}
// end-snippet

@Suite struct HasDependenciesPatternTests {
    @Test(.dependencies(CannedNetworkDependency()))
    func aLazyWorkerComesFromTheContainerInEffect() async throws {
        var model = LoginViewModel()
        let session = try await model.logIn(email: "ada@example.com", password: "correct horse")
        #expect(session.user == CannedHTTPService.ada)
    }

    @Test(.dependencies(CannedNetworkDependency()))
    func staticMembersReadTheContainerToo() async {
        #expect(await SessionRestorer.cachedUser() == nil)
    }
}
