import Testing

@testable import DependencyKit

/// Tracing records which resolve called which, what came back, how and from where — for the
/// traced task only.
struct DiagnosticsTracingTests {
    @Test func traceReturnsTheValueAndTheResolutionTree() throws {
        let kitchen = Kitchen()
        let (cafe, graph) = Diagnostics.trace { kitchen.resolveCafe() }

        #expect(cafe.roaster.grinder === kitchen.resolveGrinder())
        #expect(graph.nodes.count == 5)
        let root = try #require(graph.roots.first)
        #expect(graph.roots.map(\.id) == [0])
        #expect(root.name == "resolveCafe()")
        #expect(root.resolvedType == "Cafe")
        #expect(root.lifetime == .fresh)
        #expect(root.container == "Kitchen")
        #expect(graph.children(of: root).map(\.name) == ["resolveBarista()", "resolveRoaster()"])
        let barista = graph.children(of: root)[0]
        #expect(graph.children(of: barista).map(\.lifetime) == [.shared])
    }

    @Test func resolvedTypeIsTheConcreteTypeBehindAnExistential() throws {
        let (_, graph) = Diagnostics.trace { Showroom().resolveVehicle() }
        let node = try #require(graph.roots.first)
        #expect(node.requestedType == "Vehicle")
        #expect(node.resolvedType == "Bicycle")
        #expect(graph.renderText() == "resolveVehicle() → Bicycle as Vehicle [fresh, Showroom]")
    }

    @Test func nothingIsRecordedOutsideATrace() {
        let kitchen = Kitchen()
        _ = kitchen.resolveCafe()
        let (_, graph) = Diagnostics.trace { kitchen.resolveRoaster() }
        #expect(graph.nodes.map(\.name) == ["resolveRoaster()", "resolveGrinder()"])
    }

    @Test func concurrentTracesInDifferentTasksDoNotMix() async {
        let kitchen = Kitchen()
        await withTaskGroup(of: (Bool, Diagnostics.ResolutionGraph).self) { group in
            for index in 0..<40 {
                let wantsCafe = index.isMultiple(of: 2)
                group.addTask {
                    let graph = Diagnostics.trace {
                        if wantsCafe {
                            _ = kitchen.resolveCafe()
                        } else {
                            _ = kitchen.resolveRoaster()
                        }
                    }.graph
                    return (wantsCafe, graph)
                }
            }
            for await (wantsCafe, graph) in group {
                let expected = wantsCafe ? 5 : 2
                #expect(graph.nodes.count == expected)
                #expect(graph.roots.map(\.id) == [0])
                #expect(graph.nodes[0].name == (wantsCafe ? "resolveCafe()" : "resolveRoaster()"))
            }
        }
    }

    @Test func asyncTraceRecordsResolutionsMadeByChildTasks() async throws {
        let (_, graph) = await Diagnostics.trace { await Showroom().resolveFleet() }
        let root = try #require(graph.roots.first)
        #expect(graph.roots.count == 1)
        #expect(root.name == "resolveFleet()")
        #expect(Set(graph.children(of: root).map(\.name)) == ["resolveVehicle()", "resolveSpareVehicle()"])
        #expect(graph.children(of: root).allSatisfy { $0.resolvedType == "Bicycle" })
    }

    @Test func innermostTraceRecordsNestedResolutions() {
        let kitchen = Kitchen()
        var inner = Diagnostics.ResolutionGraph(nodes: [], roots: [])
        let (_, outer) = Diagnostics.trace {
            _ = kitchen.resolveBarista()
            inner = Diagnostics.trace { kitchen.resolveRoaster() }.graph
        }
        #expect(outer.nodes.map(\.name) == ["resolveBarista()", "resolveGrinder()"])
        #expect(inner.nodes.map(\.name) == ["resolveRoaster()", "resolveGrinder()"])
    }

    @Test func decoratingOverrideIsOneResolution() throws {
        let (vehicle, graph) = Diagnostics.trace { TunedShowroom().resolveVehicle() }
        #expect(vehicle is TunedVehicle)
        let root = try #require(graph.roots.first)
        #expect(graph.nodes.count == 1)
        #expect(root.name == "resolveVehicle()")
        #expect(root.resolvedType == "TunedVehicle")
    }

    @Test func aResolutionThatThrowsHasNoValue() throws {
        let (_, graph) = Diagnostics.trace { try? Showroom().resolveBrokenVehicle() }
        let node = try #require(graph.roots.first)
        #expect(node.resolvedType == nil)
        #expect(graph.renderText() == "resolveBrokenVehicle() → (no value) as Vehicle [fresh, Showroom]")
    }

    @Test func traceRethrowsTheBodysErrorWithItsType() {
        let showroom = Showroom()
        #expect(throws: FlatTyre.self) {
            let _: (value: any Vehicle, graph: Diagnostics.ResolutionGraph) = try Diagnostics.trace {
                () throws(FlatTyre) in
                try showroom.resolveTypedBrokenVehicle()
            }
        }
    }

    @Test func aFailedRunKeepsItsGraphWhenTheBodyReturnsAResult() {
        let (result, graph) = Diagnostics.trace { Result { try Showroom().resolveBrokenVehicle() } }
        #expect(throws: FlatTyre.self) { try result.get() }
        #expect(graph.nodes.map(\.name) == ["resolveBrokenVehicle()"])
    }

    @Test func resolutionChainNamesTheResolutionsInProgress() {
        let (inspection, _) = Diagnostics.trace { Showroom().resolveInspection() }
        #expect(
            inspection.chain == [
                Diagnostics.Step(
                    name: "resolveInspection()", requestedType: "Inspection", lifetime: .fresh, container: "Showroom"),
                Diagnostics.Step(
                    name: "resolveInspector()", requestedType: "Inspector", lifetime: .fresh, container: "Showroom"),
            ]
        )
        #expect(Diagnostics.resolutionChain.isEmpty)
    }
}

protocol Vehicle: Sendable {}
struct Bicycle: Vehicle {}
struct TunedVehicle: Vehicle {
    let base: any Vehicle
}
struct Fleet: Sendable {
    let vehicles: [any Vehicle]
}
private struct FlatTyre: Error {}
struct Inspector: Sendable {
    let chain: [Diagnostics.Step]
}
struct Inspection: Sendable {
    let chain: [Diagnostics.Step]
}

/// Resolves existentials, asynchronously too, and reports what it sees.
class Showroom: DependencyContainer, @unchecked Sendable {
    func resolveVehicle() -> any Vehicle {
        fresh { () -> any Vehicle in Bicycle() }
    }

    func resolveSpareVehicle() async -> any Vehicle {
        await fresh { () async -> any Vehicle in
            await Task.yield()
            return Bicycle()
        }
    }

    func resolveFleet() async -> Fleet {
        await fresh {
            async let first = resolveVehicle()
            async let second = resolveSpareVehicle()
            return Fleet(vehicles: [await first, await second])
        }
    }

    func resolveBrokenVehicle() throws -> any Vehicle {
        try fresh { () throws -> any Vehicle in throw FlatTyre() }
    }

    fileprivate func resolveTypedBrokenVehicle() throws(FlatTyre) -> any Vehicle {
        throw FlatTyre()
    }

    func resolveInspection() -> Inspection {
        fresh { Inspection(chain: resolveInspector().chain) }
    }

    func resolveInspector() -> Inspector {
        fresh { Inspector(chain: Diagnostics.resolutionChain) }
    }
}

/// Decorates the vehicle its superclass builds, under the same resolve name.
final class TunedShowroom: Showroom, @unchecked Sendable {
    override func resolveVehicle() -> any Vehicle {
        fresh { () -> any Vehicle in TunedVehicle(base: super.resolveVehicle()) }
    }
}
