import AppCore
import DependencyKit
import Foundation

/// The demo's composition root: AppCore's graph with this app's server, limits and cache.
///
/// Overriding three resolves is all it takes: every worker resolved afterwards talks to
/// `baseURL` with these limits and caches in `cacheDirectory`, because `CoreDependency`
/// builds each value by calling `self`'s resolves.
final class AppDependency: CoreDependency, @unchecked Sendable {
    // Only `let`s of Sendable types: the promise `@unchecked Sendable` makes.
    private let baseURL: URL
    private let cacheDirectory: URL
    private let allowsInsecureHTTP: Bool
    private let timeout: TimeInterval
    private let report: @Sendable (String) -> Void

    init(
        baseURL: URL,
        cacheDirectory: URL,
        allowsInsecureHTTP: Bool = false,
        timeout: TimeInterval = 10,
        report: @escaping @Sendable (String) -> Void
    ) {
        self.baseURL = baseURL
        self.cacheDirectory = cacheDirectory
        self.allowsInsecureHTTP = allowsInsecureHTTP
        self.timeout = timeout
        self.report = report
        super.init()
    }

    // Each override builds inside `fresh {}` so that `demo --graph` shows it, served by this class.
    override func resolveHTTPConfiguration() -> HTTPConfiguration {
        fresh {
            HTTPConfiguration(
                baseURL: baseURL,
                timeout: timeout,
                maximumResponseBytes: 256 * 1024,
                allowsInsecureHTTP: allowsInsecureHTTP
            )
        }
    }

    override func resolveUsersCacheDirectory() -> URL { fresh { cacheDirectory } }

    // Decorates the default store so an unreadable cache file shows up in the transcript.
    override func resolveUsersCache() -> any UsersCacheStore {
        fresh { UsersFileCacheStore(directory: resolveUsersCacheDirectory(), report: report) }
    }
}
