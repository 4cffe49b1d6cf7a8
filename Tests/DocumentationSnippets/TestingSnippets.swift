import AppCore
import DependencyKit
import DependencyKitTesting
import Dispatch
import Foundation
import Testing
import XCTest

// The samples of Testing.md.

// snippet: testing-test-dependency
class TestDependency: CoreDependency, @unchecked Sendable {
    let http = CannedHTTPService()

    override func resolveHTTPService() -> any HTTPServiceType { fresh { http } }
    override func resolveUsersCacheDirectory() -> URL {
        fresh { FileManager.default.temporaryDirectory.appendingPathComponent("MyAppTests") }
    }
    override func resolveUsersCache() -> any UsersCacheStore { fresh { InMemoryUsersCache() } }
}
// end-snippet

// snippet: testing-suite-trait
@Suite(.dependencies(TestDependency()))
struct UsersWorkerTests: HasDependencies {
    @Test func fetchesEveryUser() async throws {
        let users = try await dependencies.resolveUsersWorker().fetchAll(token: Secret("t"))
        #expect(users.map(\.name) == ["Ada"])
    }

    @Test(.dependencies(OfflineDependency()))  // the innermost trait wins
    func reportsAnOfflineNetwork() async {
        await #expect(throws: UsersError.http(.connectionFailed("offline"))) {
            try await dependencies.resolveUsersWorker().fetchAll(token: Secret("t"))
        }
    }
}
// end-snippet

@Suite struct ScopedBlockTests {
    @Test func aBlockSeesItsContainerAndNothingElseDoes() async throws {
        let before = DependencyInjector.dependencies
        // snippet: testing-with-dependencies
        let test = TestDependency()
        let users = try await withDependencies(test) {
            try await DependencyInjector.dependencies.resolveUsersWorker().fetchAll(token: Secret("t"))
        }
        #expect(users.count == 1)
        #expect(await test.http.paths == ["/users"])
        // end-snippet
        #expect(DependencyInjector.dependencies === before)
    }
}

// snippet: testing-parallel
@Suite struct ParallelTests {
    final class NumberedDependency: CoreDependency, @unchecked Sendable {
        let number: Int

        init(number: Int) { self.number = number }
    }

    @Test(arguments: 0..<100)
    func everyCaseSeesOnlyItsOwnContainer(number: Int) async throws {
        try await withDependencies(NumberedDependency(number: number)) {
            await Task.yield()  // let other cases run in between
            let container = try #require(DependencyInjector.dependencies as? NumberedDependency)
            #expect(container.number == number)
        }
    }
}
// end-snippet

@Suite struct EscapingWorkTests {
    @Test(.dependencies(TestDependency()))
    func detachedWorkSeesTheTestContainerOnlyWhenItReentersTheContext() async {
        // snippet: testing-escaping-detached
        let context = DependencyContext.capture()
        let seesTestContainer = await Task.detached {
            context.run { DependencyInjector.dependencies is TestDependency }
        }.value
        // end-snippet
        let withoutContext = await Task.detached { DependencyInjector.dependencies is TestDependency }.value
        #expect(seesTestContainer)
        #expect(!withoutContext)
    }

    @Test(.dependencies(TestDependency()))
    func queueWorkSeesTheTestContainerThroughTheContext() async {
        // snippet: testing-escaping-queue
        let context = DependencyContext.capture()
        let seesTestContainer = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                context.run {
                    continuation.resume(returning: DependencyInjector.dependencies is TestDependency)
                }
            }
        }
        // end-snippet
        #expect(seesTestContainer)
    }
}

// snippet: testing-xctest-setup
final class LoginXCTests: XCTestCase, HasDependencies {
    override func setUp() {
        super.setUp()
        useDependencies(TestDependency())  // restored when the test ends
    }

    func testLogInReturnsTheSession() async throws {
        let worker = dependencies.resolveAuthenticationWorker()
        let session = try await worker.logIn(email: "ada@example.com", password: Secret("pw"))
        XCTAssertEqual(session.user.name, "Ada")
    }
}
// end-snippet

// snippet: testing-xctest-invoke
final class OfflineXCTests: XCTestCase, HasDependencies {
    override func invokeTest() {
        withDependencies(OfflineDependency()) { super.invokeTest() }
    }

    func testTheUsersWorkerIsOffline() async {
        do {
            _ = try await dependencies.resolveUsersWorker().fetchAll(token: Secret("t"))
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error, .http(.connectionFailed("offline")))
        }
    }
}
// end-snippet

// snippet: testing-guard-opt-out
@Suite struct ProductionGraphTests {
    // Reads the production cache directory on purpose: the test opts out of the live-leaf check.
    @Test(.dependencies(CoreDependency()), .allowsLiveDependencies)
    func theUsersCacheLivesInTheUsersOwnCachesDirectory() {
        let directory = DependencyInjector.dependencies.resolveUsersCacheDirectory()
        #expect(directory.lastPathComponent == "AppCore")
    }
}
// end-snippet

// snippet: testing-guard-nested-scope
@Suite(.dependencies(TestDependency()))
struct NestedScopeTests {
    @Test func anInnerScopeWinsForItsBlock() async throws {
        let users = await withDependencies(OfflineTestDependency()) {
            try? await DependencyInjector.dependencies.resolveUsersWorker().fetchAll(token: Secret("t"))
        }
        #expect(users == nil)  // the inner container's offline network
        let outer = try await DependencyInjector.dependencies.resolveUsersWorker().fetchAll(token: Secret("t"))
        #expect(outer.map(\.name) == ["Ada"])  // the trait's container again
    }
}

final class OfflineTestDependency: TestDependency, @unchecked Sendable {
    override func resolveHTTPService() -> any HTTPServiceType { fresh { OfflineHTTPService() } }
}
// end-snippet
