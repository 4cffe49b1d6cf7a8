import AppCore
import Foundation

// The smallest app container under default MainActor isolation. Without `nonisolated`, the
// override would be main-actor isolated and the compiler would reject it: "main actor-isolated
// instance method 'resolveUsersCacheDirectory()' has different actor isolation from nonisolated
// overridden declaration".

// snippet: concurrency-minimal-subclass
nonisolated final class CacheDirectoryDependency: CoreDependency, @unchecked Sendable {
    override func resolveUsersCacheDirectory() -> URL {
        live { FileManager.default.temporaryDirectory.appendingPathComponent("MyApp", isDirectory: true) }
    }
}
// end-snippet
