import AppCore
import DependencyKit
import Dispatch
import Foundation
import Testing

/// The production graph over a stub server.
private final class SessionTestDependency: CoreDependency, @unchecked Sendable {
    let http = StubHTTPService(marker: "session")
    override func resolveHTTPService() -> any HTTPServiceType { fresh { http } }
}

struct SessionStoreTests {
    @Test func twoScreensSeeTheSameSessionStore() {
        let container = SessionTestDependency()
        #expect(container.resolveSessionStore() === container.resolveSessionStore())
    }

    @Test func logInRecordsTheSessionAndLogOutStartsANewStore() async throws {
        let container = SessionTestDependency()
        try await withDependencies(container) {
            let worker = container.resolveAuthenticationWorker()
            let session = try await worker.logIn(email: "ada@example.com", password: Secret("correct horse"))
            let store = container.resolveSessionStore()
            #expect(store.session == session)
            #expect(store.currentUser?.name == "Ada")

            try await worker.logOut(session)
            // The screen that still holds the old store sees the session end.
            #expect(!store.isSignedIn)
            let next = container.resolveSessionStore()
            #expect(next !== store)
            #expect(next.session == nil)

            let again = try await worker.logIn(email: "ada@example.com", password: Secret("correct horse"))
            #expect(container.resolveSessionStore() === next)
            #expect(next.session == again)
            #expect(!store.isSignedIn)
        }
    }

    @Test func signUpRecordsTheSession() async throws {
        let container = SessionTestDependency()
        try await withDependencies(container) {
            let session = try await container.resolveAuthenticationWorker()
                .signUp(name: "Ada", email: "ada@example.com", password: Secret("correct horse"))
            #expect(container.resolveSessionStore().session == session)
        }
    }

    @Test func aTestsContainerStartsWithAnEmptySessionScope() async throws {
        let app = SessionTestDependency()
        let appStore = app.resolveSessionStore()
        let test = SessionTestDependency()
        try await withDependencies(test) {
            let worker = test.resolveAuthenticationWorker()
            let session = try await worker.logIn(email: "ada@example.com", password: Secret("correct horse"))
            try await worker.logOut(session)
        }
        #expect(app.resolveSessionStore() === appStore)
        #expect(!appStore.isSignedIn)
    }

    @Test func resolvesRacingLogOutGetTheOldOrTheNewStore() {
        let container = SessionTestDependency()
        let first = container.resolveSessionStore()
        let seen = Locked(Set<ObjectIdentifier>())
        let group = DispatchGroup()
        for index in 0..<32 {
            DispatchQueue.global().async(group: group) {
                if index == 16 {
                    container.reset(.session)
                    return
                }
                for _ in 0..<50 {
                    let store = container.resolveSessionStore()
                    seen.withLock { _ = $0.insert(ObjectIdentifier(store)) }
                }
            }
        }
        group.wait()
        let second = container.resolveSessionStore()
        #expect(second !== first)
        #expect(seen.withLock { $0.isSubset(of: [ObjectIdentifier(first), ObjectIdentifier(second)]) })
    }
}
