import Testing

@testable import DependencyKit

/// Cycle detection without stopping the process: throwing resolutions throw the cycle, and
/// legitimate re-entries are not mistaken for cycles. The stopping paths are in
/// `DiagnosticsCycleTrapTests`.
struct DiagnosticsCycleTests {
    private func step(_ name: String, _ type: String, _ lifetime: Diagnostics.Lifetime, _ container: String?)
        -> Diagnostics.Step
    {
        Diagnostics.Step(name: name, requestedType: type, lifetime: lifetime, container: container)
    }

    @Test func throwingResolutionThrowsTheWholeChain() {
        requireCycleChecking()
        #expect(
            throws: PluginError.cycle(
                Diagnostics.CycleError(chain: [
                    step("resolvePlugin(a)", "Plugin", .registry, "PluginHost"),
                    step("resolvePlugin(b)", "Plugin", .registry, "PluginHost"),
                    step("resolvePlugin(a)", "Plugin", .registry, "PluginHost"),
                ])
            )
        ) {
            try PluginHost().resolvePlugin("a")
        }
    }

    @Test func cycleThroughAFreshResolveIsThrownByTheThrowingResolution() {
        requireCycleChecking()
        #expect(
            throws: PluginError.cycle(
                Diagnostics.CycleError(chain: [
                    step("resolvePlugin(c)", "Plugin", .registry, "PluginHost"),
                    step("resolveHelper()", "Plugin", .fresh, "PluginHost"),
                    step("resolvePlugin(c)", "Plugin", .registry, "PluginHost"),
                ])
            )
        ) {
            try PluginHost().resolvePlugin("c")
        }
    }

    @Test func throwingResolutionWithoutACycleReturnsItsValue() throws {
        requireCycleChecking()
        #expect(try PluginHost().resolvePlugin("leaf") is LeafPlugin)
        #expect(throws: PluginError.missing("nope")) { try PluginHost().resolvePlugin("nope") }
    }

    @Test func cycleAcrossChildTasksOfAScopedContainerIsThrown() async throws {
        requireCycleChecking()
        let error = try await withDependencies(LoopedEcho()) {
            try await #require(throws: Diagnostics.CycleError.self) {
                _ = try await echoInjector.dependencies.resolveCheckedEcho()
            }
        }
        #expect(
            error.chain == [
                step("resolveCheckedEcho()", "Echo", .registry, "LoopedEcho"),
                step("resolveCheckedReply()", "Reply", .registry, "LoopedEcho"),
                step("resolveCheckedEcho()", "Echo", .registry, "LoopedEcho"),
            ]
        )
    }

    @Test func theSameContainerOutsideTheScopeHasNoCycle() async throws {
        requireCycleChecking()
        let echo = try await echoInjector.dependencies.resolveCheckedEcho()
        #expect(echo.reply == nil)
    }

    @Test func concurrentResolutionsOfTheSameDependencyAreNotACycle() async {
        requireCycleChecking()
        let kitchen = Kitchen()
        let grinders = await withTaskGroup(of: Grinder.self) { group in
            for _ in 0..<200 {
                group.addTask { kitchen.resolveCafe().roaster.grinder }
            }
            return await group.reduce(into: [Grinder]()) { $0.append($1) }
        }
        #expect(grinders.count == 200)
        #expect(grinders.allSatisfy { $0 === kitchen.resolveGrinder() })
    }

    @Test func decoratingOverrideThatCallsSuperIsNotACycle() {
        requireCycleChecking()
        let vehicle = TunedShowroom().resolveVehicle()
        #expect((vehicle as? TunedVehicle)?.base is Bicycle)
    }

    @Test func sameResolveOnAnotherContainerIsNotACycle() {
        requireCycleChecking()
        let outer = Delegating(inner: Delegating(inner: nil))
        #expect(outer.resolveDepth() == 2)
    }

    @Test func taskThatOutlivesTheResolveThatStartedItIsNotPartOfItsChain() async {
        requireCycleChecking()
        let beacon = Beacon()
        _ = beacon.resolveSignal()
        beacon.gate.continuation.yield()
        let later = await beacon.followUp.withLock { $0 }?.value
        #expect(later?.generation == 2)
    }

    @Test func cycleSummaryUsesNamesWhenTypesRepeat() {
        let error = Diagnostics.CycleError(chain: [
            step("resolvePlugin(a)", "Plugin", .registry, "PluginHost"),
            step("resolvePlugin(b)", "Plugin", .registry, "PluginHost"),
            step("resolvePlugin(a)", "Plugin", .registry, "PluginHost"),
        ])
        #expect(error.summary == "resolvePlugin(a) → resolvePlugin(b) → resolvePlugin(a)")
    }

    @Test func cycleErrorDescribesTheChain() {
        let error = Diagnostics.CycleError(chain: [
            step("resolveWorker()", "LoopWorker", .fresh, "LoopingContainer"),
            step("resolveService()", "LoopService", .shared, nil),
            step("resolveWorker()", "LoopWorker", .fresh, "LoopingContainer"),
        ])
        #expect(error.summary == "LoopWorker → LoopService → LoopWorker")
        #expect(
            error.description == """
                Dependency cycle: LoopWorker → LoopService → LoopWorker
                  resolveWorker() -> LoopWorker [fresh, LoopingContainer]
                  resolveService() -> LoopService [shared]
                  resolveWorker() -> LoopWorker [fresh, LoopingContainer]
                """
        )
    }
}

/// Delegates a resolve to an inner container of the same class: the same name and type, but
/// another container, so not a cycle.
private final class Delegating: DependencyContainer, @unchecked Sendable {
    let inner: Delegating?
    init(inner: Delegating?) {
        self.inner = inner
        super.init()
    }

    func resolveDepth() -> Int { fresh { 1 + (inner?.resolveDepth() ?? 0) } }
}

private struct Signal: Sendable {
    let generation: Int
}

/// Its first resolve starts a task that resolves again once the first resolve has returned.
private final class Beacon: DependencyContainer, @unchecked Sendable {
    let followUp = Locked<Task<Signal, Never>?>(nil)
    let gate = AsyncStream<Void>.makeStream()

    func resolveSignal() -> Signal {
        fresh {
            let isFirst = followUp.withLock { $0 == nil }
            if isFirst {
                let stream = gate.stream
                let task = Task {
                    for await _ in stream { break }
                    return self.resolveSignal()
                }
                followUp.withLock { $0 = task }
            }
            return Signal(generation: isFirst ? 1 : 2)
        }
    }
}
