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
        /// A resolution served by an installed global container to work no test context is seen in: a warning
        /// with the chain and the fix, or, in `Context.global`, only when production code reached outside.
        func observe(_ resolution: Resolution, parent _: Int?, chain: () -> [Diagnostics.Step]) -> Int? {
            guard let containerType = resolution.containerType, resolution.servedByAnInstalledGlobal else {
                return nil
            }
            let (name, type) = (resolution.name, typeName(resolution.requestedType))
            if Interception.current.readsGlobalOnPurpose {
                // `Context.global` marks a read of the global as intended; it does not make production code quiet.
                guard resolution.lifetime.reachesOutside else { return nil }
                handOver(
                    Finding(kind: .escapedWork, key: "global live \(name) \(type) \(containerType)") {
                        """
                        \(name) -> \(type) reaches the outside world (network, disk, clock or randomness) and was served \
                        by the global container's production code (\(containerType)) inside \
                        `DependencyContainer.Context.global.run`, in work outside every test's task, while tests scoped \
                        by `.dependencies(...)` were running. `Context.global` says the work reads the global container \
                        on purpose; it does not make production code quiet. If the work belongs to a test, re-enter the \
                        test's scope instead: \(reenteringTheScope)
                        """
                    })
                return nil
            }
            let chain = chain()
            handOver(
                Finding(kind: .escapedWork, key: "escaped \(name) \(type) \(containerType)") {
                    let chainLines =
                        chain.isEmpty ? "  \(name) -> \(type)" : chain.map { "  \($0)" }.joined(separator: "\n")
                    return """
                        \(name) -> \(type) was served by the global container (\(containerType)) to work that ran \
                        outside every test's scope (Task.detached, a DispatchQueue closure, a thread, a callback \
                        stored for later) while tests scoped by `.dependencies(...)` were running. Such work does not \
                        see its test's container. The resolution chain:
                        \(chainLines)
                        If the work belongs to a test, capture the test's scope before the work escapes and re-enter \
                        it: \(reenteringTheScope) Work that means to read the global container says so, and this warning \
                        goes: `DependencyContainer.Context.global.run { … }` around it.
                        """
                }
            )
            return nil
        }

        func reportGlobalInstall(of container: Any, in injectorType: Any.Type, serves: (AnyObject) -> Bool) {
            TestGuard.globalInstall(of: container, in: injectorType, serves: serves).map(TestGuard.handOver)
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

    /// How work that escaped a test re-enters its scope: the fix the escaped-work messages end with.
    static let reenteringTheScope =
        "`let context = DependencyContainer.Context.capture()`, then `context.run { … }` inside the escaping work."
}
