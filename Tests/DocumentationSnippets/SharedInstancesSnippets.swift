import AppCore
import DependencyKit
import DependencyKitTesting
import Foundation
import Testing

// The samples of SharedInstances.md.

/// Remembers the signed-in session; one per container.
actor SessionStore {
    let directory: URL
    private(set) var session: Session?

    init(directory: URL) { self.directory = directory }

    func remember(_ session: Session) { self.session = session }
}

/// Logs in and remembers the session in the shared store.
struct SessionWorker: Sendable {
    let authentication: any AuthenticationWorkerType
    let sessions: SessionStore

    func logIn(email: String, password: Secret) async throws -> Session {
        let session = try await authentication.logIn(email: email, password: password)
        await sessions.remember(session)
        return session
    }
}

// snippet: shared-instances-resolve
class SessionDependency: CoreDependency, @unchecked Sendable {
    func resolveSessionStore() -> SessionStore {
        shared { SessionStore(directory: resolveUsersCacheDirectory()) }
    }

    func resolveSessionWorker() -> SessionWorker {
        fresh { SessionWorker(authentication: resolveAuthenticationWorker(), sessions: resolveSessionStore()) }
    }
}
// end-snippet

// snippet: shared-instances-helper
extension DependencyContainer {
    func cached<T: Sendable>(
        fileID: String = #fileID, line: UInt = #line, column: UInt = #column,
        _ make: () -> T
    ) -> T {
        shared(fileID: fileID, line: line, column: column, make)
    }
}
// end-snippet

/// A database that takes a moment to open.
actor Database {
    let url: URL

    private init(url: URL) { self.url = url }

    static func open(at url: URL) async throws -> Database {
        await Task.yield()
        return Database(url: url)
    }
}

class DatabaseDependency: CoreDependency, @unchecked Sendable {  // snippet.hide
    func resolveDatabaseURL() -> URL {  // snippet.hide
        fresh { resolveUsersCacheDirectory().appendingPathComponent("app.sqlite") }  // snippet.hide
    }  // snippet.hide
    // snippet: shared-instances-async
    open func resolveDatabase() async throws -> Database {
        try await shared { try await Database.open(at: resolveDatabaseURL()) }
    }
    // end-snippet
}  // snippet.hide

@Suite struct SharedInstancesTests {
    @Test func everyWorkerGetsTheContainersOneStore() {
        let container = SessionDependency()
        #expect(container.resolveSessionWorker().sessions === container.resolveSessionWorker().sessions)
        #expect(container.resolveSessionStore() !== SessionDependency().resolveSessionStore())
    }

    @Test func aHelperThatForwardsTheCallSiteKeepsOneInstancePerCaller() {
        final class Box: Sendable {}
        let container = DependencyContainer()
        func first() -> Box { container.cached { Box() } }
        func second() -> Box { container.cached { Box() } }
        #expect(first() === first())
        #expect(first() !== second())
    }

    @Test func anAsyncSharedResolveOpensTheDatabaseOnce() async throws {
        let container = DatabaseDependency()
        async let one = container.resolveDatabase()
        async let two = container.resolveDatabase()
        let (first, second) = try await (one, two)
        #expect(first === second)
    }
}
