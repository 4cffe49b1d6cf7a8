import Foundation
import Testing
import UsersAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The database file changed under a running server (same user): the store stops with a typed
/// error instead of writing accounts to a file no one will open again or reading another one.
@Suite struct DatabaseFileChangeTests {
    /// Ways to take the file away from under the server.
    enum Change: String, CaseIterable, Sendable {
        case deleted, movedAway, replacedByACopy, replacedByASymbolicLink

        func apply(to path: String) throws {
            let files = FileManager.default
            switch self {
            case .deleted:
                try files.removeItem(atPath: path)
            case .movedAway:
                try files.moveItem(atPath: path, toPath: path + ".moved")
            case .replacedByACopy:
                try files.copyItem(atPath: path, toPath: path + ".copy")
                guard rename(path + ".copy", path) == 0 else {
                    throw RawSocket.Failure(operation: "rename", code: errno)
                }
            case .replacedByASymbolicLink:
                try files.moveItem(atPath: path, toPath: path + ".target")
                try files.createSymbolicLink(atPath: path, withDestinationPath: path + ".target")
            }
        }
    }

    @Test(arguments: Change.allCases)
    func changedFileStopsTheStoreWithATypedErrorAndNothingIsReportedStored(change: Change) async throws {
        let container = PrivateDatabaseServerDependency()
        try await withUsersServer(container: container) { server in
            let token = try await RawHTTP.signUp("ada@example.com", to: server)
            try change.apply(to: container.path)

            let signUp = try await RawHTTP.send(
                "POST",
                "/auth/signup",
                to: server,
                json: ["name": "Grace", "email": "grace@example.com", "password": "password-1"]
            )
            #expect(signUp.status == 503)
            #expect(signUp.text.contains("database file changed"))
            #expect(!signUp.text.contains(container.path))
            // Reads stop too, and stay stopped: no request is served from another file.
            #expect(try await RawHTTP.send("GET", "/users/me", to: server, token: token).status == 503)
            let logIn = try await RawHTTP.send(
                "POST",
                "/auth/login",
                to: server,
                json: ["email": "ada@example.com", "password": "password-1"]
            )
            #expect(logIn.status == 503)
        }
        // The repository says what happened, with the path, to whoever holds it.
        let repository = container.resolveUserRepository()
        do throws(UserRepositoryError) {
            _ = try await repository.user(email: "ada@example.com")
            Issue.record("the repository answered after its file changed")
        } catch {
            guard case .fileChanged(let path, _) = error else {
                Issue.record("expected fileChanged, got \(error)")
                return
            }
            #expect(path == container.path)
        }
    }
}
