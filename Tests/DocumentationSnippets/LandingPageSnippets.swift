import AppCore
import DependencyKit
import DependencyKitTesting
import Foundation
import Testing

// snippet: landing-page
final class OfflineDependency: CoreDependency, @unchecked Sendable {
    override func resolveHTTPService() -> any HTTPServiceType {
        fresh { OfflineHTTPService() }
    }
    override func resolveUsersCacheDirectory() -> URL {
        fresh { FileManager.default.temporaryDirectory.appendingPathComponent("Offline") }
    }
}

struct UsersViewModel: HasDependencies {
    // A UsersWorker over a UsersNetworkStore over OfflineHTTPService:
    lazy var worker = dependencies.resolveUsersWorker()
}
// end-snippet

@Suite struct LandingPageTests {
    @Test(.dependencies(OfflineDependency()))
    func overridingTheHTTPServiceReachesTheUsersWorker() async {
        var model = UsersViewModel()
        await #expect(throws: UsersError.http(.connectionFailed("offline"))) {
            try await model.worker.fetchAll(token: Secret("token"))
        }
    }
}
