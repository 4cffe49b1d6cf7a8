import AppCore
import DependencyKit
import DependencyKitTesting
import Foundation
import Testing

/// A container that carries a serial number, so a test can tell its own container from others.
final class SerialDependency: CoreDependency, @unchecked Sendable {
    static let issued = Locked(0)
    let serial: Int
    override init() {
        serial = Self.issued.withLock { count in
            count += 1
            return count
        }
        super.init()
    }
    override func resolveHTTPConfiguration() -> HTTPConfiguration {
        HTTPConfiguration(baseURL: URL(string: "http://127.0.0.1:\(10_000 + serial)")!)
    }
}

/// Every container the trait handed out, kept alive so identities cannot be reused.
private let containersSeen = Locked([ObjectIdentifier: SerialDependency]())

private func currentSerial() -> Int? { (DependencyInjector.dependencies as? SerialDependency)?.serial }

struct ParallelIsolationTests {
    @Test(.dependencies(SerialDependency()), .allowsGlobalInstalls, arguments: 0..<128)
    func eachParallelTestCaseSeesOnlyItsOwnContainer(_ index: Int) async throws {
        let mine = try #require(DependencyInjector.dependencies as? SerialDependency)
        let isNew = containersSeen.withLock { seen in
            seen.updateValue(mine, forKey: ObjectIdentifier(mine)) == nil
        }
        #expect(isNew, "two test cases were handed the same container")

        let expectedURL = URL(string: "http://127.0.0.1:\(10_000 + mine.serial)")!
        try await withThrowingTaskGroup(of: Void.self) { group in
            // Other work in this test swaps the global container and scopes other containers...
            group.addTask {
                for _ in 0..<20 {
                    DependencyInjector.dependencies = CoreDependency()
                    await Task.yield()
                }
            }
            group.addTask {
                for _ in 0..<20 {
                    let other = SerialDependency()
                    let seen = await withDependencies(other) { () async -> Int? in
                        await Task.yield()
                        return currentSerial()
                    }
                    #expect(seen == other.serial)
                }
            }
            // ...while these readers must keep seeing this test case's container.
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<20 {
                        #expect(currentSerial() == mine.serial)
                        #expect(DependencyInjector.dependencies.resolveHTTPConfiguration().baseURL == expectedURL)
                        await Task.yield()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(DependencyInjector.dependencies === mine)
    }
}

@Suite(.dependencies(SerialDependency()))
struct SuiteTraitTests {
    @Test func suiteTraitScopesEachTest() {
        #expect(currentSerial() != nil)
    }

    @Test func eachTestOfTheSuiteGetsItsOwnContainer() {
        // Each test case calls the autoclosure, so a shared instance never outlives one test.
        let first = DependencyInjector.dependencies
        #expect(first is SerialDependency)
        #expect(DependencyInjector.dependencies === first)
    }

    @Test(.dependencies(CoreDependency()))
    func innermostTraitWins() {
        #expect(currentSerial() == nil)
        #expect(type(of: DependencyInjector.dependencies) == CoreDependency.self)
    }
}
