import Foundation

/// Where the demo keeps its files: the in-process server's users and the client's users cache.
///
/// By default both live in one new owner-only temporary directory, removed after the run: the
/// demo exercises the server's real storage and the client's real file cache and still leaves
/// nothing behind, so the one-command demo needs no setup, starts empty every time, and two runs
/// at once never share a cache. `--database PATH` and `--cache-directory PATH` keep either where
/// you say instead.
struct DemoFiles {
    /// The SQLite file for the in-process server; `nil` when the demo talks to another server.
    let databasePath: String?
    let cacheDirectory: URL
    let isDatabaseTemporary: Bool
    let isCacheTemporary: Bool
    private let temporaryDirectory: URL?

    /// - Parameters:
    ///   - database: `--database`, or `nil` for a temporary file.
    ///   - cacheDirectory: `--cache-directory`, or `nil` for a temporary directory.
    ///   - needsDatabase: Whether the demo starts its own server.
    init(database: String?, cacheDirectory: String?, needsDatabase: Bool) throws {
        var temporary: URL?
        func temporaryDirectory() throws -> URL {
            if let temporary { return temporary }
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("DependencyKitDemo-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(
                at: directory,
                withIntermediateDirectories: false,
                attributes: [.posixPermissions: 0o700]
            )
            temporary = directory
            return directory
        }

        if !needsDatabase {
            databasePath = nil
        } else if let database {
            databasePath = database
        } else {
            databasePath = try temporaryDirectory().appendingPathComponent("users.sqlite").path
        }
        if let cacheDirectory {
            self.cacheDirectory = URL(fileURLWithPath: cacheDirectory, isDirectory: true)
        } else {
            self.cacheDirectory = try temporaryDirectory().appendingPathComponent("cache", isDirectory: true)
        }
        isDatabaseTemporary = needsDatabase && database == nil
        isCacheTemporary = cacheDirectory == nil
        self.temporaryDirectory = temporary
    }

    /// Removes the temporary directory, if this run made one.
    func removeTemporary() {
        if let temporaryDirectory { try? FileManager.default.removeItem(at: temporaryDirectory) }
    }
}
