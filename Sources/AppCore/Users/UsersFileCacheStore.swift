internal import DependencyKit
public import Foundation

/// ``UsersCacheStore`` kept as one JSON file in a directory of your choice.
///
/// - Writes are atomic: the new content goes to a temporary file in the same directory, is
///   flushed to disk, and is then renamed over the cache file, so a reader — in this process or
///   another — sees the old file or the new one, never half of one.
/// - A corrupt or truncated file is a miss: it is reported through `report` and replaced by
///   the next good write. A missing file is a plain miss and is not reported.
/// - Writes from many tasks are serialised within the process; each is a read-modify-write of
///   the whole file, so saving the current user keeps the cached list, and vice versa.
/// - The file is created readable by its owner only (it holds names and email addresses).
///
/// ```swift
/// let cache = UsersFileCacheStore(directory: cachesDirectory) { problem in logger.warning("\(problem)") }
/// ```
public struct UsersFileCacheStore: UsersCacheStore {
    /// The directory the cache file lives in.
    public let directory: URL
    private let report: @Sendable (String) -> Void

    /// The name of the cache file inside its directory.
    public static let fileName = "users-cache.json"

    /// The file holding the cache.
    ///
    /// Computed on use rather than in `init`: appending a path component to a file URL costs
    /// microseconds on Linux, and a fresh store is built on every resolve of a users worker.
    public var fileURL: URL { directory.appendingPathComponent(Self.fileName, isDirectory: false) }

    /// Creates a store that keeps its file in `directory`.
    /// - Parameters:
    ///   - directory: The directory to keep ``fileName`` in; created on the first write.
    ///   - report: Called with a message when the file exists but is unreadable and is treated
    ///     as a miss. Called outside any lock; the message names the file, never its content.
    public init(directory: URL, report: @escaping @Sendable (String) -> Void = { _ in }) {
        self.directory = directory
        self.report = report
    }

    struct Contents: Codable, Sendable, Equatable {
        var current: User?
        var all: [User]?
    }

    /// The cached current user, or `nil` if the file is missing, unreadable or has none.
    public func loadCurrent() async -> User? { load().current }

    /// The cached list of users, or `nil` if the file is missing, unreadable or has none.
    public func loadAll() async -> [User]? { load().all }

    /// Replaces the cached current user, keeping the cached list.
    /// - Parameter current: The user to cache.
    /// - Throws: ``UsersError/cacheWriteFailed(_:)``, with the previous file intact.
    public func save(current: User) async throws(UsersError) {
        try update { $0.current = current }
    }

    /// Replaces the cached list of users, keeping the cached current user.
    /// - Parameter all: The users to cache.
    /// - Throws: ``UsersError/cacheWriteFailed(_:)``, with the previous file intact.
    public func save(all: [User]) async throws(UsersError) {
        try update { $0.all = all }
    }

    /// Empties the cache file.
    /// - Throws: ``UsersError/cacheWriteFailed(_:)``, with the previous file intact.
    public func clear() async throws(UsersError) {
        try update { $0 = Contents() }
    }

    // MARK: - File access

    /// One lock per process for every cache file: writes are rare and small. It guards only
    /// file I/O; `report` runs after it is released. It counts the writes it serialised: a
    /// `Locked<Void>` has no storage, and ThreadSanitizer reports false races on accesses to it.
    private static let writeLock = Locked(0)

    private func load() -> Contents {
        let (contents, problem) = read()
        if let problem { report(problem) }
        return contents
    }

    /// The file's contents, or empty contents and a problem to report when it is unreadable.
    func read() -> (Contents, problem: String?) {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return (Contents(), nil) }
        do {
            let data = try Data(contentsOf: fileURL)
            return (try JSONDecoder().decode(Contents.self, from: data), nil)
        } catch {
            return (Contents(), "the users cache at \(fileURL.path) is unreadable and was treated as empty")
        }
    }

    private func update(_ change: (inout Contents) -> Void) throws(UsersError) {
        let (result, problem) = Self.writeLock.withLock { writes -> (Result<Void, UsersError>, String?) in
            writes &+= 1
            var (contents, problem) = read()
            change(&contents)
            return (Result { () throws(UsersError) in try write(contents) }, problem)
        }
        if let problem { report(problem) }
        try result.get()
    }

    private func write(_ contents: Contents) throws(UsersError) {
        let manager = FileManager.default
        let directory = fileURL.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(Self.fileName)-\(UUID().uuidString).tmp")
        do {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true)
            let data = try JSONEncoder().encode(contents)
            guard manager.createFile(atPath: temporary.path, contents: nil, attributes: [.posixPermissions: 0o600])
            else { throw CocoaError(.fileWriteNoPermission) }
            let handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            // Flushed before the rename, so a crash cannot leave a renamed but empty file.
            try handle.synchronize()
            if rename(temporary.path, fileURL.path) != 0 {
                throw CocoaError(.fileWriteUnknown)
            }
        } catch {
            try? manager.removeItem(at: temporary)
            throw .cacheWriteFailed("\(Self.fileName) in \(directory.path): \(Self.reason(error))")
        }
    }

    private static func reason(_ error: any Error) -> String {
        guard let cocoa = error as? CocoaError else { return String(describing: type(of: error)) }
        switch cocoa.code {
        case .fileWriteNoPermission: return "no permission"
        case .fileWriteOutOfSpace: return "out of space"
        default: return "write failed (\(cocoa.code.rawValue))"
        }
    }
}
