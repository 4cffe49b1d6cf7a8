import Testing

@testable import DependencyKit

private final class Token: Sendable {}

/// A container's shared instances are found without a lock in an immutable table that is
/// replaced on every insertion; past a handful of call sites the table switches from a scan to a
/// dictionary. These tests hold both layouts to the same promise: one instance per call site.
struct SharedInstanceTableTests {
    private static let callSites = 40

    private static func resolve(_ container: DependencyContainer, site: Int) -> Token {
        container.shared(fileID: "Table/Sites.swift", line: UInt(site), column: 1) { Token() }
    }

    @Test func everyCallSiteKeepsItsOwnInstanceAcrossBothTableLayouts() {
        let container = DependencyContainer()
        let first = (0..<Self.callSites).map { ObjectIdentifier(Self.resolve(container, site: $0)) }
        let again = (0..<Self.callSites).reversed().map { ObjectIdentifier(Self.resolve(container, site: $0)) }
        #expect(Set(first).count == Self.callSites)
        #expect(Array(again.reversed()) == first)
    }

    @Test func callSitesInDifferentFilesWithTheSameLineAreDifferentInstances() {
        let container = DependencyContainer()
        let here = container.shared(fileID: "Table/A.swift", line: 7, column: 3) { Token() }
        let there = container.shared(fileID: "Table/B.swift", line: 7, column: 3) { Token() }
        #expect(here !== there)
        #expect(container.shared(fileID: "Table/A.swift", line: 7, column: 3) { Token() } === here)
    }

    @Test func tasksInsertingAndReadingManyCallSitesAtOnceAgreeOnEachInstance() async {
        let container = DependencyContainer()
        let seen = await withTaskGroup(of: [ObjectIdentifier].self) { group in
            for task in 0..<32 {
                group.addTask {
                    // Each task walks the sites from a different start, so insertions and lock-free
                    // reads of the table interleave.
                    (0..<Self.callSites).map { offset in
                        ObjectIdentifier(Self.resolve(container, site: (offset + task) % Self.callSites))
                    }
                }
            }
            return await group.reduce(into: [Set<ObjectIdentifier>](repeating: [], count: 0)) { sets, ids in
                sets.append(Set(ids))
            }
        }
        let expected = Set((0..<Self.callSites).map { ObjectIdentifier(Self.resolve(container, site: $0)) })
        #expect(expected.count == Self.callSites)
        #expect(seen.allSatisfy { $0 == expected })
    }
}
