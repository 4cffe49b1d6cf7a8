import Testing

@testable import DependencyKit

private final class Token: Sendable {}

/// A container's shared instances are found without a lock in a hash table whose slots are
/// written once; when it fills up, a table of twice the size replaces it. These tests hold every
/// size to the same promise — one instance per call site — and the memory to a linear bound.
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

    @Test func memoryStaysLinearInCallSites() {
        // Before, every insertion published a copy of the whole table and kept the old ones:
        // 4,000 call sites held about eight million slots (1.5 GB).
        let container = DependencyContainer()
        let sites = 4_000
        let tokens = (0..<sites).map { ObjectIdentifier(Self.resolve(container, site: $0)) }
        let footprint = container.sharedInstances.footprint
        #expect(Set(tokens).count == sites)
        #expect(footprint.cells == sites)
        // The newest table has at most four slots per cell and the older ones, each half the size of
        // the next, add less than as many again.
        #expect(footprint.slots <= 8 * sites, "\(footprint)")
        #expect(footprint.tables <= 10, "\(footprint)")
        #expect((0..<sites).map { ObjectIdentifier(Self.resolve(container, site: $0)) } == tokens)
    }

    @Test func callSitesInDifferentFilesWithTheSameLineAreDifferentInstances() {
        let container = DependencyContainer()
        let here = container.shared(fileID: "Table/A.swift", line: 7, column: 3) { Token() }
        let there = container.shared(fileID: "Table/B.swift", line: 7, column: 3) { Token() }
        #expect(here !== there)
        let again = container.shared(fileID: "Table/A.swift", line: 7, column: 3) { Token() }
        #expect(again === here)
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
