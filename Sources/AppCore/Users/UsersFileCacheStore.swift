public import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// ``UsersCacheStore`` kept as one JSON file in a directory of your choice.
///
/// - The directory is private: it is created readable by its owner only (`0700`), and a
///   directory, cache file or lock file that belongs to another user or is a symbolic link is
///   refused. Reads treat it as a reported miss; writes throw ``UsersError/cacheWriteFailed(_:)``.
/// - The file is private from its first byte: each write goes to a new temporary file created
///   exclusively with mode `0600`, flushed to disk, and then renamed over the cache file, so a
///   reader — in this process or another — sees the old file or the new one, never half of one.
///   Temporary files orphaned by a killed process are removed by the next write.
/// - A corrupt, truncated or oversized file (over ``maximumFileBytes``) is a miss: it is
///   reported through `report`, never read whole, and replaced by the next good write. A
///   missing file is a plain miss and is not reported.
/// - Writes are serialised across tasks and across processes, by a lock file in the directory;
///   each is a read-modify-write of the whole file under that lock, so saving the current user
///   keeps the cached list, and vice versa, even when another process saves at the same time.
///
/// Keep the cache in your user's caches directory, which ``defaultDirectory(appName:)`` finds:
///
/// ```swift
/// let cache = UsersFileCacheStore(directory: UsersFileCacheStore.defaultDirectory(appName: "MyApp")) { problem in
///     logger.warning("\(problem)")
/// }
/// ```
public struct UsersFileCacheStore: UsersCacheStore {
    /// The directory the cache file lives in.
    public let directory: URL
    private let report: @Sendable (String) -> Void
    /// Serialises this process's writes before they take the lock file; each process has its own.
    private let processLock: Lock<Int>
    /// The user the directory and its files must belong to: this process's effective user.
    private let owner: uid_t

    /// The name of the cache file inside its directory.
    public static let fileName = "users-cache.json"

    /// The largest cache file that is read, in bytes (8 MiB): a larger file is a reported miss
    /// and is never read, and a write that would produce one fails.
    public static let maximumFileBytes = 8 << 20

    /// The file holding the cache.
    ///
    /// Computed on use rather than in `init`: appending a path component to a file URL costs
    /// microseconds on Linux, and a fresh store is built on every resolve of a users worker.
    public var fileURL: URL { directory.appendingPathComponent(Self.fileName, isDirectory: false) }

    /// Creates a store that keeps its file in `directory`.
    ///
    /// Creating a store touches no file; the directory is checked on every read and write.
    /// - Parameters:
    ///   - directory: The directory to keep ``fileName`` in; created with mode `0700` on the
    ///     first write, with any missing parents. Use ``defaultDirectory(appName:)`` unless you
    ///     have a reason not to; never a directory other users can create, such as one directly
    ///     in the shared temporary directory.
    ///   - report: Called with a message when the file exists but is unreadable, oversized or
    ///     not safely yours and is treated as a miss. Called outside any lock; the message names
    ///     the file, never its content.
    public init(directory: URL, report: @escaping @Sendable (String) -> Void = { _ in }) {
        self.init(directory: directory, report: report, processLock: Self.writeLock, owner: geteuid())
    }

    /// Creates a store with its own process lock and expected owner, so tests can play a second
    /// process (which has a process lock of its own) or another user.
    init(
        directory: URL,
        report: @escaping @Sendable (String) -> Void = { _ in },
        processLock: Lock<Int>,
        owner: uid_t = geteuid()
    ) {
        self.directory = directory
        self.report = report
        self.processLock = processLock
        self.owner = owner
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
}

// MARK: - The default directory

extension UsersFileCacheStore {
    /// The directory, private to the current user, where an app named `appName` keeps this cache.
    ///
    /// It is `appName` inside the platform's per-user caches directory:
    /// - Apple platforms: the user's (or the sandbox container's) `Library/Caches`.
    /// - Linux and other systems: `$XDG_CACHE_HOME` when it is set to an absolute path, otherwise
    ///   `.cache` in the home directory (`$HOME`, or the user database's entry). Only when no
    ///   home directory can be found at all is it `appName-<user id>` in the temporary directory;
    ///   a directory there that another user created first is refused, never trusted.
    ///
    /// The directory is not created here; the store creates it, with mode `0700`, on its first write.
    ///
    /// ```swift
    /// let cache = UsersFileCacheStore(directory: UsersFileCacheStore.defaultDirectory(appName: "MyApp"))
    /// ```
    /// - Parameter appName: The name of your app's subdirectory, such as `"MyApp"` or a bundle
    ///   identifier. It must be one path component: not empty, not `.` or `..`, without `/`.
    ///   Any other name is a programming error and stops the program with a message.
    /// - Returns: The directory to pass to ``init(directory:report:)``.
    public static func defaultDirectory(appName: String) -> URL {
        defaultDirectory(appName: appName, environment: ProcessInfo.processInfo.environment)
    }

    /// ``defaultDirectory(appName:)`` with the environment as a parameter, for tests.
    static func defaultDirectory(appName: String, environment: [String: String]) -> URL {
        guard !appName.isEmpty, appName != ".", appName != "..", !appName.contains("/"), !appName.contains("\0")
        else {
            fatalError(
                "UsersFileCacheStore.defaultDirectory(appName:) was given \"\(appName)\", which is not one "
                    + "directory name; pass a name such as \"MyApp\", without \"/\"."
            )
        }
        #if canImport(Darwin)
            if let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first {
                return caches.appendingPathComponent(appName, isDirectory: true)
            }
        #else
            if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
                return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent(appName, isDirectory: true)
            }
        #endif
        if let home = homeDirectory(environment: environment) {
            #if canImport(Darwin)
                let caches = URL(fileURLWithPath: home, isDirectory: true)
                    .appendingPathComponent("Library", isDirectory: true)
                    .appendingPathComponent("Caches", isDirectory: true)
            #else
                let caches = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(
                    ".cache", isDirectory: true)
            #endif
            return caches.appendingPathComponent(appName, isDirectory: true)
        }
        return URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
            .appendingPathComponent("\(appName)-\(geteuid())", isDirectory: true)
    }

    /// `$HOME`, or the home directory in the user database when `HOME` is unset or relative.
    private static func homeDirectory(environment: [String: String]) -> String? {
        if let home = environment["HOME"], home.hasPrefix("/") { return home }
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(geteuid(), &entry, &buffer, buffer.count, &result) == 0, result != nil,
            let directory = entry.pw_dir
        else { return nil }
        let home = String(cString: directory)
        return home.hasPrefix("/") ? home : nil
    }
}

// MARK: - File access

extension UsersFileCacheStore {
    /// One lock per process for every cache file: writes are rare and small. It guards only
    /// file I/O; `report` runs after it is released. It counts the writes it serialised.
    private static let writeLock = Lock(0)

    /// The lock file that serialises writers across processes. It is never removed: removing a
    /// lock file lets two writers lock two different files.
    static let lockFileName = ".\(fileName).lock"

    /// Whether `name` is one of this store's temporary files, such as one left by a killed process.
    static func isTemporaryFileName(_ name: String) -> Bool {
        name.hasPrefix(".\(fileName)-") && name.hasSuffix(".tmp")
    }

    /// Why the directory or a file in it was not used.
    struct Failure: Error {
        /// Names the file or directory, never the content.
        let reason: String
        /// The directory or file does not exist: a quiet miss for readers.
        var isMissing = false

        /// A failure of a system call, described by what went wrong rather than by `errno`'s text.
        static func system(_ action: String, _ code: Int32 = errno) -> Failure {
            let what: String
            switch code {
            case EACCES, EPERM: what = "no permission"
            case ENOSPC, EDQUOT: what = "out of space"
            case ELOOP: what = "it is a symbolic link"
            default: what = "error \(code)"
            }
            return Failure(reason: "\(action): \(what)", isMissing: code == ENOENT)
        }
    }

    private func load() -> Contents {
        let (contents, problem) = read()
        if let problem { report(problem) }
        return contents
    }

    /// The file's contents, or empty contents and a problem to report when it is unreadable.
    func read() -> (Contents, problem: String?) {
        do {
            let directoryDescriptor = try openDirectory(create: false)
            defer { close(directoryDescriptor) }
            return try (read(in: directoryDescriptor), nil)
        } catch {
            return (Contents(), error.isMissing ? nil : unreadable(error))
        }
    }

    private func unreadable(_ failure: Failure) -> String {
        "the users cache at \(fileURL.path) is unreadable (\(failure.reason)) and was treated as empty"
    }

    /// The cache file read through the open directory; a missing file is empty contents.
    private func read(in directoryDescriptor: Int32) throws(Failure) -> Contents {
        // O_NONBLOCK: a FIFO planted in place of the file must not block the open.
        let descriptor = openat(directoryDescriptor, Self.fileName, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT { return Contents() }
            throw .system("cannot open the file")
        }
        defer { close(descriptor) }
        try checkOwnership(of: descriptor, isDirectory: false, what: "the file")
        let data = try Self.readAll(descriptor, limit: Self.maximumFileBytes)
        do {
            return try JSONDecoder().decode(Contents.self, from: data)
        } catch {
            throw Failure(reason: "not a valid cache")
        }
    }

    /// Reads to the end of the file, refusing it as soon as it proves larger than `limit`.
    private static func readAll(_ descriptor: Int32, limit: Int) throws(Failure) -> Data {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .system("cannot inspect the file") }
        guard info.st_size <= limit else { throw tooLarge(limit) }
        // One byte more than the limit, so a file that grew since `fstat` is caught too.
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                guard count <= limit else { throw tooLarge(limit) }
                bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, limit + 1 - count)))
            }
            let read = bytes.withUnsafeMutableBytes { buffer in
                systemRead(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if read == 0 { break }
            if read < 0 {
                if errno == EINTR { continue }
                throw .system("cannot read the file")
            }
            count += read
        }
        guard count <= limit else { throw tooLarge(limit) }
        return Data(bytes[..<count])
    }

    private static func tooLarge(_ limit: Int) -> Failure {
        Failure(reason: "larger than \(limit) bytes")
    }

    /// Opens the directory without following a symbolic link, and checks that it is yours.
    ///
    /// Every later access goes through the returned descriptor, so the directory cannot be
    /// swapped for another between the check and the use.
    private func openDirectory(create: Bool) throws(Failure) -> Int32 {
        // A trailing "/" would make O_NOFOLLOW follow a symbolic link.
        var path = directory.path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        if create { try Self.makeDirectories(path) }
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            var info = stat()
            if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
                throw Failure(reason: "the directory is a symbolic link")
            }
            throw .system("cannot open the directory", code)
        }
        do {
            try checkOwnership(of: descriptor, isDirectory: true, what: "the directory")
        } catch {
            close(descriptor)
            throw error
        }
        return descriptor
    }

    /// Creates `path` and any missing parents, each readable by its owner only.
    private static func makeDirectories(_ path: String) throws(Failure) {
        if mkdir(path, 0o700) == 0 || errno == EEXIST { return }
        guard errno == ENOENT, let slash = path.lastIndex(of: "/"), slash != path.startIndex else {
            throw .system("cannot create the directory")
        }
        try makeDirectories(String(path[..<slash]))
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw .system("cannot create the directory") }
    }

    /// Refuses a file or directory that belongs to another user or is not the kind expected.
    private func checkOwnership(of descriptor: Int32, isDirectory: Bool, what: String) throws(Failure) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .system("cannot inspect \(what)") }
        guard info.st_mode & S_IFMT == (isDirectory ? S_IFDIR : S_IFREG) else {
            throw Failure(reason: "\(what) is not a \(isDirectory ? "directory" : "regular file")")
        }
        guard info.st_uid == owner else { throw Failure(reason: "\(what) belongs to another user") }
    }

    private func update(_ change: (inout Contents) -> Void) throws(UsersError) {
        let (result, problem) = processLock.withLock { writes -> (Result<Void, Failure>, String?) in
            writes &+= 1
            return lockedUpdate(change)
        }
        if let problem { report(problem) }
        if case .failure(let failure) = result {
            throw .cacheWriteFailed("\(Self.fileName) in \(directory.path): \(failure.reason)")
        }
    }

    /// Read-modify-write under the lock file; a problem reading the old file is returned to report.
    private func lockedUpdate(_ change: (inout Contents) -> Void) -> (Result<Void, Failure>, String?) {
        let directoryDescriptor: Int32
        do { directoryDescriptor = try openDirectory(create: true) } catch { return (.failure(error), nil) }
        defer { close(directoryDescriptor) }
        let lockDescriptor: Int32
        do { lockDescriptor = try lock(in: directoryDescriptor) } catch { return (.failure(error), nil) }
        // Closing the descriptor releases the lock.
        defer { close(lockDescriptor) }
        removeTemporaryFiles(in: directoryDescriptor)
        var contents = Contents()
        var problem: String?
        do { contents = try read(in: directoryDescriptor) } catch { problem = unreadable(error) }
        change(&contents)
        do {
            try write(contents, in: directoryDescriptor)
            return (.success(()), problem)
        } catch {
            return (.failure(error), problem)
        }
    }

    /// Takes the lock file exclusively, waiting for any other writer, in this process or another.
    private func lock(in directoryDescriptor: Int32) throws(Failure) -> Int32 {
        let descriptor = openat(
            directoryDescriptor, Self.lockFileName, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .system("cannot open the lock file") }
        do throws(Failure) {
            try checkOwnership(of: descriptor, isDirectory: false, what: "the lock file")
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else { throw Failure.system("cannot lock the lock file") }
            }
        } catch {
            close(descriptor)
            throw error
        }
        return descriptor
    }

    /// Removes every temporary file of this store. Called under the lock file, when no writer
    /// is between creating its temporary file and renaming it: any found was left by a process
    /// killed mid-write.
    private func removeTemporaryFiles(in directoryDescriptor: Int32) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where Self.isTemporaryFileName(name) {
            _ = unlinkat(directoryDescriptor, name, 0)
        }
    }

    /// Writes `contents` to a new private temporary file and renames it over the cache file.
    private func write(_ contents: Contents, in directoryDescriptor: Int32) throws(Failure) {
        let data: Data
        do { data = try JSONEncoder().encode(contents) } catch { throw Failure(reason: "cannot encode the users") }
        guard data.count <= Self.maximumFileBytes else { throw Self.tooLarge(Self.maximumFileBytes) }
        let temporary = ".\(Self.fileName)-\(UUID().uuidString).tmp"
        // Exclusive and 0600 from the start: nobody else can open it, and nothing planted under
        // its name is written through.
        let descriptor = openat(
            directoryDescriptor,
            temporary,
            O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
            0o600
        )
        guard descriptor >= 0 else { throw .system("cannot create a temporary file") }
        do throws(Failure) {
            defer { close(descriptor) }
            try Self.writeAll(data, to: descriptor)
            // Flushed before the rename, so a crash cannot leave a renamed but empty file.
            guard fsync(descriptor) == 0 else { throw Failure.system("cannot flush the temporary file") }
            guard renameat(directoryDescriptor, temporary, directoryDescriptor, Self.fileName) == 0 else {
                throw Failure.system("cannot replace the file")
            }
        } catch {
            _ = unlinkat(directoryDescriptor, temporary, 0)
            throw error
        }
        // Makes the rename itself durable; the file is already complete either way.
        _ = fsync(directoryDescriptor)
    }

    private static func writeAll(_ data: Data, to descriptor: Int32) throws(Failure) {
        var offset = 0
        while offset < data.count {
            let written = data.withUnsafeBytes { buffer in
                systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw .system("cannot write the temporary file")
            }
            offset += written
        }
    }
}

// The C calls, out of reach of the store's own `read` and `write` methods.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
