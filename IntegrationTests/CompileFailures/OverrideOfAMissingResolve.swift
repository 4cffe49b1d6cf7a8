// expected-error: method does not override any method from its superclass
// An override whose name is misspelt (or whose resolve was removed from the protocol).
import AppCore
import DependencyKit
import Foundation

final class AppDependency: CoreDependency, @unchecked Sendable {
    override func resolveUserCacheDirectory() -> URL {
        fresh { FileManager.default.temporaryDirectory.appendingPathComponent("MyApp") }
    }
}
