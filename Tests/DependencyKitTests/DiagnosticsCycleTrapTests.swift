import Testing

@testable import DependencyKit

/// A cycle in a resolution that cannot throw stops the process with the whole chain. Each
/// case runs in a child process (an exit test) and checks what it printed.
struct DiagnosticsCycleTrapTests {
    @Test func cycleThroughResolveMethodsStopsWithTheWholeChain() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Diagnostics.checksCycles = true
            _ = LoopingContainer().resolveWorker()
        }
        let output = standardError(of: result)
        #expect(
            output.contains(
                """
                Dependency cycle: LoopWorker → LoopService → LoopStore → LoopWorker
                  resolveWorker() -> LoopWorker [fresh, LoopingContainer]
                  resolveService() -> LoopService [fresh, LoopingContainer]
                  resolveStore() -> LoopStore [fresh, LoopingContainer]
                  resolveWorker() -> LoopWorker [fresh, LoopingContainer]
                """
            ),
            "\(output)"
        )
        #expect(output.contains("Diagnostics.checksCycles"))
    }

    @Test func cycleThroughTwoSharedInstancesStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Diagnostics.checksCycles = true
            _ = SharedLoopContainer().resolveSession()
        }
        let output = standardError(of: result)
        #expect(
            output.contains(
                """
                Dependency cycle: LoopWorker → LoopService → LoopWorker
                  resolveSession() -> LoopWorker [shared, SharedLoopContainer]
                  resolveSessionStore() -> LoopService [shared, SharedLoopContainer]
                  resolveSession() -> LoopWorker [shared, SharedLoopContainer]
                """
            ),
            "\(output)"
        )
    }

    @Test func cycleThroughAFactoryStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Diagnostics.checksCycles = true
            _ = ReportingContainer().resolveReportFactory().create()
        }
        let output = standardError(of: result)
        #expect(
            output.contains(
                """
                Dependency cycle: Formatter → Report → Formatter
                  resolveFormatter() -> Formatter [fresh, ReportingContainer]
                  Factory.create(payload:) -> Report [factory]
                  resolveFormatter() -> Formatter [fresh, ReportingContainer]
                """
            ),
            "\(output)"
        )
    }

    @Test func cycleAcrossChildTasksOfAScopedContainerStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Diagnostics.checksCycles = true
            await withDependencies(LoopedEcho()) {
                _ = await echoInjector.dependencies.resolveEcho()
            }
        }
        let output = standardError(of: result)
        #expect(
            output.contains(
                """
                Dependency cycle: Echo → Reply → Echo
                  resolveEcho() -> Echo [fresh, LoopedEcho]
                  resolveReply() -> Reply [fresh, LoopedEcho]
                  resolveEcho() -> Echo [fresh, LoopedEcho]
                """
            ),
            "\(output)"
        )
    }

    @Test func resolveThatCallsItselfStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Diagnostics.checksCycles = true
            _ = SelfLoopingContainer().resolveLoop()
        }
        let output = standardError(of: result)
        #expect(
            output.contains(
                """
                Dependency cycle: SelfLoop → SelfLoop
                  resolveLoop() -> SelfLoop [fresh, SelfLoopingContainer]
                  resolveLoop() -> SelfLoop [fresh, SelfLoopingContainer]
                """
            ),
            "\(output)"
        )
    }

    @Test func cycleCheckingFollowsTheBuildDefaultAndCanBeSwitched() async {
        await #expect(processExitsWith: .success) {
            #if DEBUG
                precondition(Diagnostics.checksCyclesByDefault, "debug builds check cycles")
            #else
                precondition(!Diagnostics.checksCyclesByDefault, "release builds do not check cycles")
            #endif
            precondition(Diagnostics.checksCycles == Diagnostics.checksCyclesByDefault, "starts at the default")

            Diagnostics.checksCycles = false
            precondition(!Diagnostics.checksCycles)
            precondition(Showroom().resolveInspection().chain.isEmpty, "no chain is kept when off")

            Diagnostics.checksCycles = true
            precondition(Diagnostics.checksCycles)
            precondition(Showroom().resolveInspection().chain.count == 2, "the chain is kept when on")

            // A trace keeps the chain even with checking off, and leaves the setting alone.
            Diagnostics.checksCycles = false
            let (inspection, _) = Diagnostics.trace { Showroom().resolveInspection() }
            precondition(inspection.chain.count == 2, "a trace keeps the chain")
            precondition(!Diagnostics.checksCycles, "tracing does not switch checking on")

            // A trace live in another task does not make this untraced task keep a chain.
            let (started, tracing) = AsyncStream<Void>.makeStream()
            let (finish, release) = AsyncStream<Void>.makeStream()
            let traced = Task {
                await Diagnostics.trace {
                    tracing.yield()
                    for await _ in finish { break }
                }.graph
            }
            for await _ in started { break }
            precondition(Showroom().resolveInspection().chain.isEmpty, "untraced tasks keep no chain")
            release.yield()
            let otherGraph = await traced.value
            precondition(otherGraph.isEmpty, "the other trace saw nothing of this task")
        }
    }
}
