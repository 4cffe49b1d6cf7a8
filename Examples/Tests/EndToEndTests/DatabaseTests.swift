import DependencyKit
import Foundation
import GRDB
import Testing
import UsersAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The SQLite repository end to end: persistence, constraints, start-up failures, a full disk.
@Suite struct DatabaseTests {
    @Test func restartOnTheSameFileKeepsUsersAndRevocations() async throws {
        let directory = TemporaryDirectory()
        let (revoked, live) = try await withUsersServer(
            container: PrivateDatabaseServerDependency(directory: directory)
        ) { server in
            let revoked = try await RawHTTP.signUp("ada@example.com", to: server)
            #expect(try await RawHTTP.send("POST", "/auth/logout", to: server, token: revoked).status == 204)
            let live = try await RawHTTP.signUp("grace@example.com", to: server)
            return (revoked, live)
        }
        try await withUsersServer(container: PrivateDatabaseServerDependency(directory: directory)) { server in
            let login = try await RawHTTP.send(
                "POST",
                "/auth/login",
                to: server,
                json: ["email": "ada@example.com", "password": "password-1"]
            )
            #expect(login.status == 200)
            #expect(try await RawHTTP.send("GET", "/users/me", to: server, token: revoked).status == 401)
            let me = try await RawHTTP.send("GET", "/users/me", to: server, token: live)
            #expect(me.status == 200)
            #expect(me.text.contains("grace@example.com"))
        }
    }

    @Test func fiftyRacingSignUpsOfOneEmailGiveExactlyOneCreated() async throws {
        try await withUsersServer { server in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<50 {
                    group.addTask {
                        try await RawHTTP.send(
                            "POST",
                            "/auth/signup",
                            to: server,
                            json: [
                                "name": "Racer \(index)", "email": "race@example.com", "password": "password-\(index)",
                            ]
                        ).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 201 }.count == 1)
            #expect(statuses.filter { $0 == 409 }.count == 49)
        }
    }

    @Test func fileIsCreatedOwnerOnlyInAnOwnerOnlyDirectory() async throws {
        let container = PrivateDatabaseServerDependency()
        // A directory that does not exist yet: the repository creates it.
        let path = container.directory.url.appendingPathComponent("nested/users.sqlite").path
        let repository = SQLiteUserRepository(configuration: .init(path: path))
        try await repository.prepare()
        #expect(try mode(of: path) == 0o600)
        #expect(try mode(of: (path as NSString).deletingLastPathComponent) == 0o700)
    }

    @Test func lockedDatabaseIsATypedStartupError() async throws {
        let container = PrivateDatabaseServerDependency()
        try await SQLiteUserRepository(configuration: container.configuration).prepare()
        // Another connection takes the write lock and keeps it while the server starts.
        let holder = try DatabaseQueue(path: container.path)
        let locked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            try? holder.inDatabase { db in
                try db.execute(sql: "BEGIN EXCLUSIVE")
                locked.signal()
                _ = release.wait(timeout: .now() + 30)
                try db.execute(sql: "ROLLBACK")
            }
            finished.signal()
        }.start()
        #expect(locked.wait(timeout: .now() + 10) == .success)
        let failure = await startupFailure(container)
        release.signal()
        #expect(finished.wait(timeout: .now() + 10) == .success)
        #expect(failure == .repositoryUnavailable(.locked(path: container.path)))
    }

    @Test func corruptFileIsATypedStartupError() async throws {
        let container = PrivateDatabaseServerDependency()
        let garbage = Data(repeating: 0x55, count: 8192)
        #expect(
            FileManager.default.createFile(
                atPath: container.path, contents: garbage, attributes: [.posixPermissions: 0o600]))
        let failure = await startupFailure(container)
        guard case .repositoryUnavailable(.corrupt(let path, _)) = failure else {
            Issue.record("expected a corrupt-database error, got \(String(describing: failure))")
            return
        }
        #expect(path == container.path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: container.path)) == garbage)
    }

    @Test func readOnlyFileIsATypedStartupError() async throws {
        let container = PrivateDatabaseServerDependency()
        try await SQLiteUserRepository(configuration: container.configuration).prepare()
        #expect(chmod(container.path, 0o400) == 0)
        #expect(await startupFailure(container) == .repositoryUnavailable(.readOnly(path: container.path)))
    }

    @Test func missingFileIsATypedStartupErrorWhenCreationIsOff() async throws {
        let container = PrivateDatabaseServerDependency(createIfMissing: false)
        #expect(await startupFailure(container) == .repositoryUnavailable(.missing(path: container.path)))
        #expect(!FileManager.default.fileExists(atPath: container.path))
    }

    @Test func symbolicLinkOrSharedDirectoryIsRefused() async throws {
        let target = PrivateDatabaseServerDependency()
        try await SQLiteUserRepository(configuration: target.configuration).prepare()
        let linked = PrivateDatabaseServerDependency()
        #expect(symlink(target.path, linked.path) == 0)
        guard case .repositoryUnavailable(.untrusted(let path, _)) = await startupFailure(linked) else {
            Issue.record("a symbolic link must be refused")
            return
        }
        #expect(path == linked.path)

        let shared = PrivateDatabaseServerDependency()
        #expect(chmod(shared.directory.url.path, 0o777) == 0)
        guard case .repositoryUnavailable(.untrusted) = await startupFailure(shared) else {
            Issue.record("a directory others can write must be refused")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: shared.path))
    }

    @Test func fullDatabaseDuringSignUpAnswers507AndChangesNothing() async throws {
        // SQLite's page limit fails a write exactly as a full disk does (SQLITE_FULL).
        let container = PrivateDatabaseServerDependency(maximumPageCount: 16)
        try await withUsersServer(container: container) { server in
            let first = try await RawHTTP.signUp("first@example.com", to: server)
            let name = String(repeating: "€", count: 100)
            var status = 201
            var index = 0
            var before = (users: 0, sessions: 0)
            while status == 201, index < 500 {
                before = try counts(container.path)
                status = try await RawHTTP.send(
                    "POST",
                    "/auth/signup",
                    to: server,
                    json: ["name": name, "email": "user\(index)@example.com", "password": "password-1"]
                ).status
                index += 1
            }
            #expect(status == 507)
            let after = try counts(container.path)
            #expect(after.users == before.users)
            #expect(after.sessions == before.sessions)
            // The account that did not fit does not exist; the server still serves the others.
            let login = try await RawHTTP.send(
                "POST",
                "/auth/login",
                to: server,
                json: ["email": "user\(index - 1)@example.com", "password": "password-1"]
            )
            #expect(login.status == 401)
            #expect(try await RawHTTP.send("GET", "/users/me", to: server, token: first).status == 200)
        }
    }

    @Test func twoContainersRunningTogetherKeepTheirOwnDatabases() async throws {
        let one = PrivateDatabaseServerDependency()
        let two = PrivateDatabaseServerDependency()
        try await withUsersServer(container: one) { first in
            try await withUsersServer(container: two) { second in
                _ = try await RawHTTP.signUp("ada@example.com", to: first)
                let token = try await RawHTTP.signUp("ada@example.com", to: second)
                let listed = try await RawHTTP.send("GET", "/users", to: second, token: token)
                #expect(listed.text.components(separatedBy: "ada@example.com").count == 2)
            }
        }
        #expect(one.path != two.path)
        #expect(try counts(one.path).users == 1)
        #expect(try counts(two.path).users == 1)
    }

    @Test func containerOpensItsRepositoryOnce() async throws {
        let container = PrivateDatabaseServerDependency()
        let first = container.resolveUserRepository() as? SQLiteUserRepository
        let second = container.resolveUserRepository() as? SQLiteUserRepository
        #expect(first != nil)
        #expect(first === second)
        #expect(PrivateDatabaseServerDependency().resolveUserRepository() as? SQLiteUserRepository !== first)
    }
}

private func mode(of path: String) throws -> mode_t {
    var info = stat()
    guard lstat(path, &info) == 0 else { throw CocoaError(.fileNoSuchFile) }
    return info.st_mode & 0o777
}

/// Rows in the users and sessions tables, read through a connection of the test's own.
private func counts(_ path: String) throws -> (users: Int, sessions: Int) {
    let queue = try DatabaseQueue(path: path)
    return try queue.read { db in
        (
            try Int.fetchOne(db, sql: "SELECT count(*) FROM users") ?? -1,
            try Int.fetchOne(db, sql: "SELECT count(*) FROM sessions") ?? -1
        )
    }
}
