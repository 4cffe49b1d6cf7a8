import DependencyKit
import Foundation
import UsersAPI

/// The production container — SQLite — with a private, empty database file and a cheap hash.
///
/// This one override is what lets every end-to-end test run in parallel with a database of
/// its own: each instance points the repository at a new directory, removed with the
/// directory object.
class PrivateDatabaseServerDependency: ServerCoreDependency, @unchecked Sendable {
    let directory: TemporaryDirectory
    let configuration: SQLiteUserRepository.Configuration

    init(
        directory: TemporaryDirectory = TemporaryDirectory(),
        createIfMissing: Bool = true,
        maximumPageCount: Int? = nil
    ) {
        self.directory = directory
        self.configuration = SQLiteUserRepository.Configuration(
            path: directory.url.appendingPathComponent("users.sqlite").path,
            createIfMissing: createIfMissing,
            busyTimeout: .milliseconds(200),
            maximumPageCount: maximumPageCount
        )
        super.init()
    }

    var path: String { configuration.path }

    override func resolveDatabaseConfiguration() -> SQLiteUserRepository.Configuration { fresh { configuration } }
    override func resolvePasswordHasher() -> any PasswordHasher { fresh { PBKDF2PasswordHasher(iterations: 2) } }
}

/// A new directory only this user can use, removed when the last holder lets go.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("UsersAPITests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
