import AppCore
import DependencyKit
import Foundation
import NIOConcurrencyHelpers

/// The client container for one test: its own server URL, cache directory and limits.
final class TestAppDependency: CoreDependency, @unchecked Sendable {
    let baseURL: URL
    let cacheDirectory: URL
    let timeout: TimeInterval
    let maximumResponseBytes: Int
    let reports: Reports

    /// Collects what the cache store reports.
    final class Reports: Sendable {
        private let messages = NIOLockedValueBox([String]())
        func append(_ message: String) { messages.withLockedValue { $0.append(message) } }
        var all: [String] { messages.withLockedValue { $0 } }
    }

    init(baseURL: URL, timeout: TimeInterval = 5, maximumResponseBytes: Int = 64 * 1024) {
        self.baseURL = baseURL
        self.cacheDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("EndToEndTests-\(UUID().uuidString)", isDirectory: true)
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
        self.reports = Reports()
        super.init()
    }

    deinit {
        try? FileManager.default.removeItem(at: cacheDirectory)
    }

    override func resolveHTTPConfiguration() -> HTTPConfiguration {
        fresh { HTTPConfiguration(baseURL: baseURL, timeout: timeout, maximumResponseBytes: maximumResponseBytes) }
    }

    override func resolveUsersCacheDirectory() -> URL { fresh { cacheDirectory } }

    override func resolveUsersCache() -> any UsersCacheStore {
        let reports = reports
        return fresh { UsersFileCacheStore(directory: resolveUsersCacheDirectory()) { reports.append($0) } }
    }

    /// The cache file's bytes, to prove a failure left them untouched.
    func cacheFileBytes() -> Data? {
        try? Data(contentsOf: cacheDirectory.appendingPathComponent(UsersFileCacheStore.fileName))
    }
}
