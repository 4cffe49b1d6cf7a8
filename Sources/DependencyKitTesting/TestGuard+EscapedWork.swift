internal import DependencyKit

/// What the test guard gives and tells work that escaped every test's task: the process-wide test slot
/// and the container an escaped `dependencies(as:)` reads instead of stopping the process.
extension TestGuard {
    /// A container of type `Refined` for work that escaped its test: the newest running test's that is
    /// one, else the newest of the latest tests' (``State/recent``); `nil` when no test ran with one.
    static func container<Refined>(as _: Refined.Type) -> Refined? {
        let (live, recent) = state.withLock { ($0.contexts.compactMap(\.context), $0.recent) }
        if let refined = live.reversed().lazy.compactMap({ $0.container as? Refined }).first { return refined }
        return recent.reversed().lazy.compactMap { $0 as? Refined }.first
    }

    /// The finding for work outside a test that read `dependencies(as:)` while the container in effect
    /// there is not of that type: it was given `given` (a test's container) instead of stopping the
    /// process, or, with `given` `nil`, no test ever ran with a container of that type.
    static func escapedConversionMessage(_ refined: Any.Type, inEffect: Any, given: Any?) -> String {
        let outcome =
            given.map {
                "so the work was given the container of a test that runs or ran with one, a \(Swift.type(of: $0)), "
                    + "instead of stopping the process; in production it would stop."
            }
            ?? ("and no test in this process ran with a container of that type, so there is none to give it: the "
                + "process stops with the engine's message.")
        return """
            Work outside its test's task (Task.detached, a DispatchQueue closure, a thread) read the container \
            through `dependencies(as: \(refined).self)` while tests were running. The container in effect there, a \
            \(Swift.type(of: inEffect)), is not a \(refined), \(outcome) Capture the test's scope before the \
            work escapes and re-enter it: \(reenteringTheScope)
            """
    }

    /// What inspects the resolutions of work that no test context can be seen in.
    static let escapedWork = EscapedWork()

    /// The test guard's interceptor for work outside every test's task: the process-wide test slot
    /// while no serial XCTest has bound its context to the process.
    final class EscapedWork: ResolutionInterceptor, InjectionObserver {
        func observe(_ resolution: Resolution, parent _: Int?, chain: () -> [Diagnostics.Step]) -> Int? {
            TestGuard.inspect(resolution, chain: chain)
            return nil
        }

        func reportGlobalInstall(of container: Any, in injectorType: Any.Type, serves: (AnyObject) -> Bool) {
            TestGuard.reportGlobalInstall(of: container, in: injectorType, serves: serves)
        }

        /// Work outside every test's task read `dependencies(as:)` and the global container is not a
        /// `Refined`: the container of the newest test that is one (see ``TestGuard/container(as:preferring:)``),
        /// and a warning.
        func containerForEscapedWork<Refined>(as _: Refined.Type, insteadOf global: Any) -> Refined? {
            let refined = TestGuard.container(as: Refined.self)
            let message = TestGuard.escapedConversionMessage(Refined.self, inEffect: global, given: refined)
            TestGuard.handOver(Finding(kind: .escapedConversion, key: "escaped as \(Refined.self)") { message })
            return refined
        }
    }
}
