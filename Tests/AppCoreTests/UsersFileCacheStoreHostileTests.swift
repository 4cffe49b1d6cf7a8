import DependencyKit
import Foundation
import TestSupport
import Testing

@testable import AppCore

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The users cache against other local users, killed processes and a second process.
@Suite struct UsersFileCacheStoreHostileTests {
    private let ada = User(id: "u1", name: "Ada", email: "ada@example.com")
    private let grace = User(id: "u2", name: "Grace", email: "grace@example.com")
    private let mallory = User(id: "u0", name: "Mallory (admin)", email: "mallory@example.com")

    /// Collects what a store reports.
    private final class Reports: Sendable {
        private let messages = Locked([String]())
        func append(_ message: String) { messages.withLock { $0.append(message) } }
        var all: [String] { messages.withLock { $0 } }
    }

    private func makeStore(_ directory: URL) -> (UsersFileCacheStore, Reports) {
        let reports = Reports()
        return (UsersFileCacheStore(directory: directory) { reports.append($0) }, reports)
    }

    /// Writes a valid cache file holding `user` as the current user, the way another user would plant one.
    private func plantCache(_ user: User, at file: URL) throws {
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        try JSONEncoder().encode(UsersFileCacheStore.Contents(current: user)).write(to: file)
    }

    private func mode(_ path: String) -> Int {
        var info = stat()
        guard lstat(path, &info) == 0 else { return -1 }
        return Int(info.st_mode & 0o7777)
    }

    // MARK: - Item 6: the directory

    @Test func defaultDirectoryIsTheUsersCachesDirectoryNotTheTemporaryOne() {
        let directory = UsersFileCacheStore.defaultDirectory(appName: "MyApp")
        let shared = FileManager.default.temporaryDirectory.appendingPathComponent("MyApp", isDirectory: true)
        #expect(directory.lastPathComponent == "MyApp")
        #expect(directory.standardizedFileURL.path != shared.standardizedFileURL.path)
        #if canImport(Darwin)
            #expect(directory.deletingLastPathComponent().lastPathComponent == "Caches")
        #else
            let xdg = UsersFileCacheStore.defaultDirectory(
                appName: "MyApp",
                environment: ["XDG_CACHE_HOME": "/home/ada/.xdg-cache", "HOME": "/home/ada"]
            )
            #expect(xdg.path == "/home/ada/.xdg-cache/MyApp")
            // The XDG specification says a relative XDG_CACHE_HOME is ignored.
            let relative = UsersFileCacheStore.defaultDirectory(
                appName: "MyApp",
                environment: ["XDG_CACHE_HOME": "relative/cache", "HOME": "/home/ada"]
            )
            #expect(relative.path == "/home/ada/.cache/MyApp")
            let home = UsersFileCacheStore.defaultDirectory(appName: "MyApp", environment: ["HOME": "/home/ada"])
            #expect(home.path == "/home/ada/.cache/MyApp")
            // Without HOME, the user database's home directory, never the shared temporary directory.
            let database = UsersFileCacheStore.defaultDirectory(appName: "MyApp", environment: [:])
            // (Or, for a user the database does not know, a directory named for the user id.)
            let lastResort = FileManager.default.temporaryDirectory.appendingPathComponent("MyApp-\(geteuid())")
            #expect(database.path.hasSuffix("/.cache/MyApp") || database.path == lastResort.path)
            #expect(
                UsersFileCacheStore.defaultDirectory(appName: "MyApp", environment: ProcessInfo.processInfo.environment)
                    == directory
            )
        #endif
    }

    @Test func directoryAndMissingParentsAreCreatedPrivate() async throws {
        let root = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("cache/MyApp", isDirectory: true)
        let (store, _) = makeStore(directory)
        try await store.save(current: ada)
        #expect(mode(directory.path) == 0o700)
        #expect(mode(directory.deletingLastPathComponent().path) == 0o700)
        #expect(mode(store.fileURL.path) == 0o600)
    }

    @Test func directoryReachedThroughASymbolicLinkIsRefused() async throws {
        let root = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        // Another user's directory, with a cache they wrote, linked where the app looks.
        let theirs = root.appendingPathComponent("theirs", isDirectory: true)
        try plantCache(mallory, at: theirs.appendingPathComponent(UsersFileCacheStore.fileName))
        let planted = try Data(contentsOf: theirs.appendingPathComponent(UsersFileCacheStore.fileName))
        let directory = root.appendingPathComponent("AppCore", isDirectory: true)
        try FileManager.default.createSymbolicLink(at: directory, withDestinationURL: theirs)
        // A trailing slash must not make the link followed.
        for spelling in [directory, URL(fileURLWithPath: directory.path + "/", isDirectory: true)] {
            let (store, reports) = makeStore(spelling)
            #expect(await store.loadCurrent() == nil)
            #expect(reports.all.count == 1)
            #expect(reports.all.first?.contains("symbolic link") == true)
            await #expect {
                try await store.save(current: ada)
            } throws: { error in
                guard case .cacheWriteFailed(let reason) = error as? UsersError else { return false }
                return reason.contains("symbolic link")
            }
        }
        #expect(try Data(contentsOf: theirs.appendingPathComponent(UsersFileCacheStore.fileName)) == planted)
        #expect(try FileManager.default.contentsOfDirectory(atPath: theirs.path) == [UsersFileCacheStore.fileName])
    }

    @Test func cacheFileThatIsASymbolicLinkIsAMissAndIsReplacedNotWrittenThrough() async throws {
        let directory = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let elsewhere = directory.appendingPathComponent("elsewhere.json")
        try plantCache(mallory, at: elsewhere)
        let planted = try Data(contentsOf: elsewhere)
        let (store, reports) = makeStore(directory)
        try FileManager.default.createSymbolicLink(at: store.fileURL, withDestinationURL: elsewhere)

        #expect(await store.loadCurrent() == nil)
        #expect(reports.all.first?.contains("symbolic link") == true)
        try await store.save(all: [ada])
        #expect(await store.loadAll() == [ada])
        #expect(await store.loadCurrent() == nil)
        #expect(try Data(contentsOf: elsewhere) == planted)
        let attributes = try FileManager.default.attributesOfItem(atPath: store.fileURL.path)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
    }

    @Test func directoryAndFileOfAnotherUserAreRefused() async throws {
        // Plays another user by expecting an owner that is not this process's user.
        let directory = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try plantCache(mallory, at: directory.appendingPathComponent(UsersFileCacheStore.fileName))
        let reports = Reports()
        let store = UsersFileCacheStore(
            directory: directory,
            report: { reports.append($0) },
            processLock: Lock(0),
            owner: geteuid() &+ 1
        )
        #expect(await store.loadCurrent() == nil)
        #expect(reports.all.count == 1)
        #expect(reports.all.first?.contains("belongs to another user") == true)
        await #expect {
            try await store.save(current: ada)
        } throws: { error in
            guard case .cacheWriteFailed(let reason) = error as? UsersError else { return false }
            return reason.contains("belongs to another user")
        }
    }

    @Test(.enabled(if: geteuid() == 0, "handing files to another user needs root"))
    func realFilesOfAnotherUserAreRefusedAndTheFileIsRepaired() async throws {
        let nobody: uid_t = 65534
        let root = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }

        // A directory another user created first, holding their cache: refused, never trusted.
        let theirs = root.appendingPathComponent("AppCore", isDirectory: true)
        let theirFile = theirs.appendingPathComponent(UsersFileCacheStore.fileName)
        try plantCache(mallory, at: theirFile)
        #expect(chown(theirFile.path, nobody, nobody) == 0)
        #expect(chown(theirs.path, nobody, nobody) == 0)
        let (store, reports) = makeStore(theirs)
        #expect(await store.loadCurrent() == nil)
        #expect(reports.all.first?.contains("belongs to another user") == true)
        await #expect(throws: UsersError.self) { try await store.save(current: ada) }
        #expect(
            try JSONDecoder().decode(UsersFileCacheStore.Contents.self, from: Data(contentsOf: theirFile)).current
                == mallory)

        // Their file in our directory: a miss, then replaced by our next write.
        let ours = root.appendingPathComponent("ours", isDirectory: true)
        let (ourStore, ourReports) = makeStore(ours)
        try plantCache(mallory, at: ourStore.fileURL)
        #expect(chown(ourStore.fileURL.path, nobody, nobody) == 0)
        #expect(await ourStore.loadCurrent() == nil)
        #expect(ourReports.all.first?.contains("belongs to another user") == true)
        try await ourStore.save(all: [grace])
        #expect(await ourStore.loadCurrent() == nil)
        #expect(await ourStore.loadAll() == [grace])
        let attributes = try FileManager.default.attributesOfItem(atPath: ourStore.fileURL.path)
        #expect((attributes[.ownerAccountID] as? NSNumber)?.uint32Value == geteuid())
    }

    @Test func oversizedFileIsAReportedMissAndTheNextWriteRepairsIt() async throws {
        let directory = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, reports) = makeStore(directory)
        // Valid JSON, padded past the limit: it would decode, but is not read.
        var data = try JSONEncoder().encode(UsersFileCacheStore.Contents(current: mallory))
        data.append(Data(repeating: UInt8(ascii: " "), count: UsersFileCacheStore.maximumFileBytes))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try data.write(to: store.fileURL)

        #expect(await store.loadCurrent() == nil)
        #expect(reports.all.count == 1)
        #expect(reports.all.first?.contains("larger than \(UsersFileCacheStore.maximumFileBytes) bytes") == true)
        try await store.save(current: ada)
        #expect(await store.loadCurrent() == ada)
        #expect(reports.all.count == 2)
    }

    @Test func hugeFileIsNeverReadWhole() async throws {
        let directory = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, reports) = makeStore(directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // 1.5 GiB without using disk: a sparse file.
        let size: off_t = 3 << 29
        let descriptor = open(store.fileURL.path, O_WRONLY | O_CREAT, 0o600)
        #expect(descriptor >= 0)
        #expect(ftruncate(descriptor, size) == 0)
        close(descriptor)
        let before = peakResidentBytes()

        #expect(await store.loadCurrent() == nil)
        // Reading it whole would raise the peak by 1.5 GiB.
        #expect(peakResidentBytes() - before < 1 << 30)
        #expect(reports.all.first?.contains("larger than") == true)
    }

    @Test func writeLargerThanTheLimitFailsAndKeepsThePreviousFile() async throws {
        let directory = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, _) = makeStore(directory)
        try await store.save(current: ada)
        let name = String(repeating: "n", count: 1 << 16)
        let many = (0..<(UsersFileCacheStore.maximumFileBytes >> 16 + 1)).map {
            User(id: "u\($0)", name: name, email: "user\($0)@example.com")
        }
        await #expect {
            try await store.save(all: many)
        } throws: { error in
            guard case .cacheWriteFailed(let reason) = error as? UsersError else { return false }
            return reason.contains("larger than")
        }
        #expect(await store.loadCurrent() == ada)
        #expect(await store.loadAll() == nil)
    }

    // MARK: - Item 7: temporary files

    @Test func temporaryFilesArePrivateFromTheirFirstByte() async throws {
        let directory = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, _) = makeStore(directory)
        try await store.save(current: ada)

        // Another user watching the directory: every temporary file it catches must be 0600.
        let observed = Locked((seen: 0, exposed: [Int]()))
        let path = directory.path
        try await withThread { shouldStop in
            while !shouldStop() {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                for name in names where name.hasSuffix(".tmp") {
                    var info = stat()
                    guard lstat(path + "/" + name, &info) == 0 else { continue }
                    let mode = Int(info.st_mode & 0o777)
                    observed.withLock {
                        $0.seen += 1
                        if mode != 0o600 { $0.exposed.append(mode) }
                    }
                }
            }
        } _: {
            for index in 0..<300 {
                let user = User(id: "u\(index)", name: "User \(index)", email: "u\(index)@example.com")
                try await store.save(all: [user])
            }
        }
        #expect(observed.withLock { $0.exposed }.isEmpty)
    }

    @Test func temporaryFilesOrphanedByAKilledWriterAreRemovedByTheNextWrite() async throws {
        let directory = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, _) = makeStore(directory)
        try await store.save(current: ada)
        // What a writer killed between creating its temporary file and renaming it leaves.
        let orphans = (0..<3).map { _ in ".\(UsersFileCacheStore.fileName)-\(UUID().uuidString).tmp" }
        let unrelated = ["notes.tmp", ".\(UsersFileCacheStore.fileName).backup"]
        for name in orphans + unrelated {
            try Data("{\"current\":".utf8).write(to: directory.appendingPathComponent(name))
        }
        try await store.save(all: [grace])
        let left = try Set(FileManager.default.contentsOfDirectory(atPath: directory.path))
        #expect(left.isDisjoint(with: orphans))
        #expect(left.isSuperset(of: unrelated))
        #expect(await store.loadCurrent() == ada)
        #expect(await store.loadAll() == [grace])
    }

    // MARK: - Item 8: two processes

    @Test func twoProcessesKeepEachOthersWrites() async throws {
        // Each store has its own process lock, as two processes do: only the lock file
        // serialises them. Without it, one's read-modify-write undoes the other's.
        let directory = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = UsersFileCacheStore(directory: directory, processLock: Lock(0))
        let second = UsersFileCacheStore(directory: directory, processLock: Lock(0))
        let reader = UsersFileCacheStore(directory: directory, processLock: Lock(0))
        let rounds = 200
        let users = (0..<rounds).map { User(id: "u\($0)", name: "User \($0)", email: "u\($0)@example.com") }

        let lost = try await withThrowingTaskGroup(of: Int.self) { group in
            group.addTask {
                for user in users { try await first.save(current: user) }
                return 0
            }
            group.addTask {
                for count in 1...rounds { try await second.save(all: Array(users.prefix(count))) }
                return 0
            }
            // Each writer only moves forward, so a value that goes back is a lost write.
            group.addTask {
                var lost = 0
                var (current, count) = (-1, 0)
                for _ in 0..<(rounds * 2) {
                    let contents = reader.read().0
                    let seenCurrent = contents.current.flatMap { users.firstIndex(of: $0) } ?? -1
                    let seenCount = contents.all?.count ?? 0
                    if seenCurrent < current || seenCount < count { lost += 1 }
                    (current, count) = (max(current, seenCurrent), max(count, seenCount))
                }
                return lost
            }
            return try await group.reduce(0, +)
        }
        #expect(lost == 0)
        #expect(await reader.loadCurrent() == users.last)
        #expect(await reader.loadAll() == users)
    }
}

/// The process's peak resident memory so far, in bytes.
private func peakResidentBytes() -> Int {
    var usage = rusage()
    #if canImport(Darwin)
        _ = getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss)
    #else
        _ = getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) * 1024
    #endif
}
