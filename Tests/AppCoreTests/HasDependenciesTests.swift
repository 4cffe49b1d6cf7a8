import AppCore
import DependencyKit
import DependencyKitTesting
import Foundation
import Testing

private final class MarkedDependency: CoreDependency, @unchecked Sendable {
    let http = StubHTTPService(marker: "has-dependencies")
    override func resolveHTTPService() -> any HTTPServiceType { fresh { http } }
    override func resolveUsersCacheDirectory() -> URL {
        fresh { FileManager.default.temporaryDirectory.appendingPathComponent("DependencyKitTests-\(getpid())") }
    }
}

private struct LoginViewModel: HasDependencies {
    lazy var worker = dependencies.resolveAuthenticationWorker()
    lazy var http = self.dependencies.resolveHTTPService()
}

private final class ProfileController: HasDependencies {
    lazy var worker: any UsersWorkerType = dependencies.resolveUsersWorker()
    lazy var http: any HTTPServiceType = dependencies.resolveHTTPService()
    static func staticHTTP() -> any HTTPServiceType { dependencies.resolveHTTPService() }
}

@Suite(.dependencies(MarkedDependency()))
struct HasDependenciesTests {
    @Test func structReadsTheContainerInALazyVar() async throws {
        var model = LoginViewModel()
        let marker = (model.http as? StubHTTPService)?.marker
        #expect(marker == "has-dependencies")
        let session = try await model.worker.logIn(email: "ada@example.com", password: Secret("pw"))
        #expect(session.user.id == "u1")
    }

    @Test func classReadsTheContainerInALazyVarAndStatically() async throws {
        let controller = ProfileController()
        #expect((controller.http as? StubHTTPService)?.marker == "has-dependencies")
        #expect((ProfileController.staticHTTP() as? StubHTTPService)?.marker == "has-dependencies")
        let users = try await controller.worker.fetchAll(token: Secret("t"))
        #expect(users.count == 1)
    }

    @Test func dependenciesIsTheScopedContainer() {
        let container = DependencyInjector.dependencies
        #expect(container is MarkedDependency)
        #expect(LoginViewModel().dependencies === container)
    }
}
