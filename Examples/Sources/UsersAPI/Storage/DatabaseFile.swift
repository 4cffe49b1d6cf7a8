internal import Foundation

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// Makes sure a database path is private to this user before SQLite opens it.
enum DatabaseFile {
    /// Checks (and if needed creates) the directory `0700` and the file `0600`.
    ///
    /// Both are inspected without following symbolic links, so a link planted by another user
    /// cannot redirect the server's writes.
    /// - Throws: ``UserRepositoryStartupError`` naming what is wrong.
    static func secure(path: String, createIfMissing: Bool) throws(UserRepositoryStartupError) {
        let directory =
            (path as NSString).deletingLastPathComponent.isEmpty
            ? "." : (path as NSString).deletingLastPathComponent
        let owner = geteuid()

        var info = stat()
        if lstat(path, &info) != 0 {
            guard errno == ENOENT else {
                throw .failed(path: path, detail: String(cString: strerror(errno)))
            }
            guard createIfMissing else { throw .missing(path: path) }
            try secureDirectory(directory, owner: owner)
            // Exclusive creation with the final mode: never readable by others, not even briefly.
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw .directoryUnavailable(path: directory, reason: String(cString: strerror(errno)))
            }
            close(descriptor)
            return
        }
        try secureDirectory(directory, owner: owner)
        guard (info.st_mode & S_IFMT) != S_IFLNK else { throw .untrusted(path: path, reason: "it is a symbolic link") }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw .untrusted(path: path, reason: "it is not a regular file")
        }
        guard info.st_uid == owner else { throw .untrusted(path: path, reason: "it belongs to another user") }
        // A cleared owner-write bit says "read-only", and is honoured even for root, whom the
        // kernel would let write anyway.
        guard info.st_mode & S_IWUSR != 0 else { throw .readOnly(path: path) }
        if info.st_mode & 0o077 != 0, chmod(path, 0o600) != 0 {
            throw .untrusted(path: path, reason: "it is readable by others and cannot be made private")
        }
    }

    private static func secureDirectory(_ directory: String, owner: uid_t) throws(UserRepositoryStartupError) {
        var info = stat()
        if lstat(directory, &info) != 0 {
            guard errno == ENOENT else {
                throw .directoryUnavailable(path: directory, reason: String(cString: strerror(errno)))
            }
            do {
                try FileManager.default.createDirectory(
                    atPath: directory,
                    withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700]
                )
            } catch {
                throw .directoryUnavailable(path: directory, reason: "it does not exist and cannot be created")
            }
            guard lstat(directory, &info) == 0 else {
                throw .directoryUnavailable(path: directory, reason: String(cString: strerror(errno)))
            }
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw .untrusted(path: directory, reason: "it is not a directory (or is a symbolic link)")
        }
        guard info.st_uid == owner else { throw .untrusted(path: directory, reason: "it belongs to another user") }
        guard info.st_mode & 0o022 == 0 else {
            throw .untrusted(path: directory, reason: "others can write to it; use a directory only you can write")
        }
    }
}
