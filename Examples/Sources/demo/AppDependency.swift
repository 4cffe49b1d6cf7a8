import AppCore
import AsyncHTTPTransport
import DependencyKit
import Foundation

/// The demo's composition root: AppCore's graph with this app's server, limits and cache.
///
/// Overriding four resolves is all it takes: every worker resolved afterwards talks to
/// `baseURL` with these limits and caches in `cacheDirectory`, because `CoreDependency`
/// builds each value by calling `self`'s resolves. Every other resolve is inherited from
/// `CoreDependency` unchanged; the demo prints which is which, from a trace.
///
/// Not `final`: ``OfflineDependency`` subclasses it to swap one more resolve.
///
/// `@unchecked Sendable`: Swift makes every subclass of a container restate it. It is sound
/// because this class stores only `let`s of Sendable values (state lives in shared instances).
class AppDependency: CoreDependency, @unchecked Sendable {
    /// Everything the overrides read; only `let`s of Sendable types, the promise
    /// `@unchecked Sendable` makes.
    struct Settings: Sendable {
        var baseURL: URL
        var cacheDirectory: URL
        var allowsInsecureHTTP = false
        var timeout: TimeInterval = 10
        var report: @Sendable (String) -> Void = { _ in }
    }

    let settings: Settings

    init(settings: Settings) {
        self.settings = settings
        super.init()
    }

    // Each override builds inside `fresh {}`, so a trace records it as served by this class.
    override func resolveHTTPConfiguration() -> HTTPConfiguration {
        fresh {
            HTTPConfiguration(
                baseURL: settings.baseURL,
                timeout: settings.timeout,
                maximumResponseBytes: 256 * 1024,
                allowsInsecureHTTP: settings.allowsInsecureHTTP
            )
        }
    }

    // The network leaf: AsyncHTTPClient, whose decompression stops at the limit (on Linux,
    // URLSession inflates a compressed body to its end first). Still `live`: a guarded test that
    // reaches it without an override is told which resolve to override.
    override func resolveHTTPService() -> any HTTPServiceType {
        live { AsyncHTTPService(configuration: resolveHTTPConfiguration()) }
    }

    override func resolveUsersCacheDirectory() -> URL { fresh { settings.cacheDirectory } }

    // Decorates the default store so an unreadable cache file shows up in the transcript.
    override func resolveUsersCache() -> any UsersCacheStore {
        fresh { UsersFileCacheStore(directory: resolveUsersCacheDirectory(), report: settings.report) }
    }
}
