import AppCore
import DependencyKit
import DependencyKitTesting
import Foundation
import Testing

// snippet: readme-quick-start
// 1. Override one resolve; everything built on it follows.
final class MyAppDependency: CoreDependency, @unchecked Sendable {
    override func resolveUsersCacheDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("MyApp")
    }
}

// 2. Reach the container from anywhere.
struct ProfileViewModel: HasDependencies {
    lazy var users = dependencies.resolveUsersWorker()  // caches in MyApp/
}

// 3. Give each test its own container, safe with parallel tests.
@Test(.dependencies(MyAppDependency()))
func profileCachesInTheAppDirectory() {
    let cache = DependencyInjector.dependencies.resolveUsersCache() as? UsersFileCacheStore
    #expect(cache?.fileURL.deletingLastPathComponent().lastPathComponent == "MyApp")
}
// end-snippet

@Suite struct ReadmeTests {
    @Test(.dependencies(MyAppDependency()))
    func viewModelReadsTheScopedContainer() {
        #expect(ProfileViewModel().dependencies is MyAppDependency)
    }
}
