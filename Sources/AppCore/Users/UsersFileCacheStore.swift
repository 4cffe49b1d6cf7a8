public import Foundation
internal import DependencyKit

/// ``UsersCacheStore`` kept as one JSON file in a directory of your choice.
///
/// - Writes are atomic: the new content goes to a temporary file in the same directory,
///   which is then renamed over the cache file, so a reader sees the old file or the new one,
///   never half of one.
/// - A corrupt or truncated file is a miss: it is reported through `report` and replaced by
///   the next good write.
/// - Writes to the same file from many tasks are serialised within the process.
public struct UsersFileCacheStore: UsersCacheStore {
    /// The file holding the cache.
    public let fileURL: URL
    private let report: @Sendable (String) -> Void

    /// Creates a store that keeps its file in `directory`.
    /// - Parameters:
    ///   - directory: The directory to keep `users-cache.json` in; created on the first write.
    ///   - report: Called with a message when the file is unreadable and treated as a miss.
    public init(directory: URL, report: @escaping @Sendable (String) -> Void = { _ in }) {
        fileURL = directory.appendingPathComponent("users-cache.json")
        self.report = report
    }

    struct Contents: Codable, Sendable, Equatable {
        var current: User?
        var all: [User]?
    }

    public func loadCurrent() async -> User? { read().current }

    public func loadAll() async -> [User]? { read().all }

    public func save(current: User) async throws(UsersError) {
        try update { $0.current = current }
    }

    public func save(all: [User]) async throws(UsersError) {
        try update { $0.all = all }
    }

    public func clear() async throws(UsersError) {
        try update { $0 = Contents() }
    }

    // MARK: - File access

    /// One lock per process for every cache file: writes are rare and small.
    private static let writeLock = Locked(())

    func read() -> Contents {
        guard let data = try? Data(contentsOf: fileURL) else { return Contents() }
        do {
            return try JSONDecoder().decode(Contents.self, from: data)
        } catch {
            report("users cache at \(fileURL.path) is unreadable and was treated as empty")
            return Contents()
        }
    }

    private func update(_ change: (inout Contents) -> Void) throws(UsersError) {
        let result: Result<Void, UsersError> = Self.writeLock.withLock { _ in
            var contents = read()
            change(&contents)
            return Result { () throws(UsersError) in try write(contents) }
        }
        try result.get()
    }

    private func write(_ contents: Contents) throws(UsersError) {
        let manager = FileManager.default
        let directory = fileURL.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".users-cache-\(UUID().uuidString).tmp")
        do {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true)
            let data = try JSONEncoder().encode(contents)
            guard manager.createFile(atPath: temporary.path, contents: data) else {
                throw CocoaError(.fileWriteUnknown)
            }
            if rename(temporary.path, fileURL.path) != 0 {
                throw CocoaError(.fileWriteUnknown)
            }
        } catch {
            try? manager.removeItem(at: temporary)
            throw .cacheWriteFailed("\(fileURL.lastPathComponent): \(error.localizedDescription)")
        }
    }
}
