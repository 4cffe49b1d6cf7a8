import Foundation

/// Where the demo's in-process server keeps its users.
///
/// By default a new SQLite file in a new owner-only temporary directory, removed after the
/// run: the demo exercises the server's real storage and still leaves nothing behind, so the
/// one-command demo needs no setup and starts empty every time. `--database PATH` keeps the
/// users in a file of your choice across runs instead.
struct DemoDatabase {
    let path: String
    private let temporaryDirectory: URL?

    var isTemporary: Bool { temporaryDirectory != nil }

    init(path: String?) throws {
        if let path {
            self.path = path
            temporaryDirectory = nil
        } else {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("DependencyKitDemo-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(
                at: directory,
                withIntermediateDirectories: false,
                attributes: [.posixPermissions: 0o700]
            )
            temporaryDirectory = directory
            self.path = directory.appendingPathComponent("users.sqlite").path
        }
    }

    /// Removes the temporary directory, if this run made one.
    func removeIfTemporary() {
        if let temporaryDirectory { try? FileManager.default.removeItem(at: temporaryDirectory) }
    }
}
