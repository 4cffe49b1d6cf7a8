// expected-error: overriding declaration requires an 'override' keyword
// An app's subclass that redeclares a resolve without `override`: never a silent new method.
import AppCore
import DependencyKit
import Foundation

final class AppDependency: CoreDependency, @unchecked Sendable {
    func resolveUsersCacheDirectory() -> URL {
        fresh { FileManager.default.temporaryDirectory.appendingPathComponent("MyApp") }
    }
}
