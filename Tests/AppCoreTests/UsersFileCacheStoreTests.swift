import DependencyKit
import Foundation
import Testing

@testable import AppCore

@Suite struct UsersFileCacheStoreTests {
    private let ada = User(id: "u1", name: "Ada", email: "ada@example.com")
    private let grace = User(id: "u2", name: "Grace", email: "grace@example.com")

    /// Collects what a store reports.
    private final class Reports: Sendable {
        private let messages = Locked([String]())
        func append(_ message: String) { messages.withLock { $0.append(message) } }
        var all: [String] { messages.withLock { $0 } }
    }

    private func makeStore(_ directory: URL = scratchDirectory()) -> (UsersFileCacheStore, Reports) {
        let reports = Reports()
        return (UsersFileCacheStore(directory: directory) { reports.append($0) }, reports)
    }

    @Test func savedUsersAreLoadedBackAndKeepEachOther() async throws {
        let (store, reports) = makeStore()
        defer { try? FileManager.default.removeItem(at: store.fileURL.deletingLastPathComponent()) }
        try await store.save(current: ada)
        try await store.save(all: [ada, grace])
        #expect(await store.loadCurrent() == ada)
        #expect(await store.loadAll() == [ada, grace])
        // A second store on the same directory reads the same file.
        let (again, _) = makeStore(store.fileURL.deletingLastPathComponent())
        #expect(await again.loadCurrent() == ada)
        #expect(reports.all.isEmpty)
    }

    @Test func missingFileIsAQuietMiss() async {
        let (store, reports) = makeStore()
        #expect(await store.loadCurrent() == nil)
        #expect(await store.loadAll() == nil)
        #expect(reports.all.isEmpty)
    }

    @Test(arguments: [
        "not json at all",
        #"{"current":{"id":"u1","name":"Ada","#,
        #"{"current":{"id":1}}"#,
        "",
    ])
    func corruptFileIsAReportedMissAndTheNextWriteRepairsIt(content: String) async throws {
        let directory = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, reports) = makeStore(directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(content.utf8).write(to: store.fileURL)

        #expect(await store.loadCurrent() == nil)
        #expect(reports.all.count == 1)
        #expect(reports.all.first?.contains("unreadable") == true)
        #expect(reports.all.first?.contains(content.isEmpty ? "\u{0}" : content) == false)

        try await store.save(current: grace)
        #expect(await store.loadCurrent() == grace)
        let decoded = try JSONDecoder().decode(
            UsersFileCacheStore.Contents.self,
            from: Data(contentsOf: store.fileURL)
        )
        #expect(decoded.current == grace)
    }

    @Test func clearForgetsEverything() async throws {
        let (store, _) = makeStore()
        defer { try? FileManager.default.removeItem(at: store.fileURL.deletingLastPathComponent()) }
        try await store.save(current: ada)
        try await store.save(all: [ada])
        try await store.clear()
        #expect(await store.loadCurrent() == nil)
        #expect(await store.loadAll() == nil)
    }

    @Test func manyTasksWritingAtOnceNeverLeaveACorruptFile() async throws {
        let directory = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, reports) = makeStore(directory)
        let users = (0..<200).map { User(id: "u\($0)", name: "User \($0)", email: "user\($0)@example.com") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, user) in users.enumerated() {
                group.addTask {
                    if index.isMultiple(of: 2) {
                        try await store.save(current: user)
                    } else {
                        try await store.save(all: Array(users.prefix(index)))
                    }
                }
                // Readers race the writers and must never see half a file.
                group.addTask {
                    let (reader, readerReports) = makeStore(directory)
                    _ = await reader.loadCurrent()
                    #expect(readerReports.all.isEmpty)
                }
            }
            try await group.waitForAll()
        }
        let contents = try JSONDecoder().decode(
            UsersFileCacheStore.Contents.self,
            from: Data(contentsOf: store.fileURL)
        )
        #expect(contents.current.map(users.contains) == true)
        #expect(reports.all.isEmpty)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(Set(leftovers) == [UsersFileCacheStore.fileName, UsersFileCacheStore.lockFileName])
    }

    @Test func failedWriteIsATypedErrorAndLeavesNoTemporaryFile() async throws {
        let directory = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, _) = makeStore(directory)
        // A directory where the cache file should be makes the final rename fail.
        try FileManager.default.createDirectory(at: store.fileURL, withIntermediateDirectories: true)
        await #expect {
            try await store.save(current: ada)
        } throws: { error in
            guard case .cacheWriteFailed(let reason) = error as? UsersError else { return false }
            return reason.contains(UsersFileCacheStore.fileName)
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(Set(leftovers) == [UsersFileCacheStore.fileName, UsersFileCacheStore.lockFileName])
    }

    @Test func cacheFileIsPrivateToItsOwner() async throws {
        let (store, _) = makeStore()
        defer { try? FileManager.default.removeItem(at: store.fileURL.deletingLastPathComponent()) }
        try await store.save(current: ada)
        let attributes = try FileManager.default.attributesOfItem(atPath: store.fileURL.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }
}
