/// Cycle checking and resolution tracing for every DependencyKit container.
///
/// Every resolution the engine performs — a resolve method that builds its value with
/// `fresh {}`, a shared instance, a factory, a configurator, the tagged registry — passes one
/// hook. With cycle checking off and nothing traced, that hook is a single relaxed atomic load
/// and a compare; otherwise it pushes the resolution on the current task's *resolution
/// chain*, a task-local linked list: child tasks see their parent's chain, and concurrent
/// tasks (or tests running in parallel) never see each other's.
///
/// ## Cycles
///
/// ```swift
/// final class Broken: DependencyContainer {
///     func resolveA() -> A { fresh { A(b: resolveB()) } }
///     func resolveB() -> B { fresh { B(a: resolveA()) } }
/// }
/// Broken().resolveA()
/// // Fatal error: Dependency cycle: A → B → A
/// //   resolveA() -> A [fresh, Broken]
/// //   resolveB() -> B [fresh, Broken]
/// //   resolveA() -> A [fresh, Broken]
/// ```
///
/// See ``cycleChecking`` for the policy.
///
/// ## Tracing
///
/// ```swift
/// let (worker, graph) = Diagnostics.trace { DependencyInjector.dependencies.resolveUsersWorker() }
/// print(graph.renderText())
/// // resolveUsersWorker() → UsersWorker [fresh, CoreDependency]
/// // ├─ resolveUsersStore() → UsersNetworkStore [fresh, CoreDependency]
/// // …
/// ```
public enum Diagnostics {
    /// Whether resolutions are checked for cycles, process-wide.
    ///
    /// The default is ``CycleChecking/trap`` in debug builds of DependencyKit and
    /// ``CycleChecking/off`` in release builds (see ``defaultCycleChecking``): a debug build
    /// reports a cycle the first time it is reached, with the whole chain, while a release build
    /// pays nothing for a check that a tested graph does not need. Set it at launch, from any
    /// thread, to override the default — for example on in a release build under test:
    ///
    /// ```swift
    /// Diagnostics.cycleChecking = .trap
    /// ```
    ///
    /// A resolution is the same as one in progress when its name, produced type and container
    /// are the same. Resolutions that return a value stop the process with ``DependencyCycleError``'s
    /// message, because they have nothing else to return; throwing resolutions (the tagged
    /// registry) throw the error. An override that decorates the implementation it overrides
    /// (`super.resolveX()` inside `fresh {}` in `resolveX()`) nests the same resolution
    /// directly inside itself; that is not a cycle unless it goes on for 16 levels.
    ///
    /// The chain follows tasks, not threads: a resolve that starts child tasks which resolve
    /// it again is caught; two tasks resolving the same thing at the same time are not a cycle.
    public static var cycleChecking: CycleChecking {
        get { DiagnosticsWord.checksCycles(DiagnosticsWord.load()) ? .trap : .off }
        set { DiagnosticsWord.setChecksCycles(newValue == .trap) }
    }

    /// The cycle checking this build of DependencyKit starts with: ``CycleChecking/trap`` in a
    /// debug build, ``CycleChecking/off`` in a release build.
    public static var defaultCycleChecking: CycleChecking {
        DiagnosticsWord.checksCyclesByDefault ? .trap : .off
    }

    /// The resolutions in progress in the current task, outermost first.
    ///
    /// Useful in a log line or a breakpoint inside a resolve. Empty when cycle checking is off
    /// and nothing is traced, because the chain is then not kept.
    public static var resolutionChain: [ResolutionStep] {
        ResolutionFrame.current?.liveChain ?? []
    }

    /// Runs `body` and returns what it returned with the tree of the resolutions it performed.
    ///
    /// Only the current task and its child tasks are traced; a trace running at the same time in
    /// another task records its own resolutions. Traces nest: the innermost records.
    ///
    /// ```swift
    /// let (worker, graph) = Diagnostics.trace { DependencyInjector.dependencies.resolveUsersWorker() }
    /// try graph.renderDOT().write(to: url, atomically: true, encoding: .utf8)
    /// ```
    /// - Parameter body: The code to trace.
    /// - Returns: `body`'s result and the resolution graph.
    /// - Throws: What `body` throws, with its type; the graph is then discarded. To keep the
    ///   graph of a failed run, return a `Result` from `body` instead.
    public static func trace<R, Failure: Error>(
        _ body: () throws(Failure) -> R
    ) throws(Failure) -> (value: R, graph: ResolutionGraph) {
        let session = TraceSession()
        DiagnosticsWord.beginTrace()
        defer { DiagnosticsWord.endTrace() }
        let result = TraceSession.$current.withValue(session) { () -> Result<R, Failure> in
            do throws(Failure) {
                return .success(try body())
            } catch {
                return .failure(error)
            }
        }
        let graph = session.close()
        return (try result.get(), graph)
    }

    /// Runs the asynchronous `body` and returns what it returned with the tree of the
    /// resolutions it and its child tasks performed.
    ///
    /// See ``trace(_:)``.
    /// - Parameters:
    ///   - isolation: The caller's isolation, inherited by `body`.
    ///   - body: The code to trace.
    /// - Returns: `body`'s result and the resolution graph.
    /// - Throws: What `body` throws, with its type; the graph is then discarded.
    public static func trace<R, Failure: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws(Failure) -> R
    ) async throws(Failure) -> (value: R, graph: ResolutionGraph) {
        let session = TraceSession()
        DiagnosticsWord.beginTrace()
        defer { DiagnosticsWord.endTrace() }
        let result = await TraceSession.$current.withValue(
            session,
            operation: { () async -> Result<R, Failure> in
                do throws(Failure) {
                    return .success(try await body())
                } catch {
                    return .failure(error)
                }
            },
            isolation: isolation
        )
        let graph = session.close()
        return (try result.get(), graph)
    }
}
