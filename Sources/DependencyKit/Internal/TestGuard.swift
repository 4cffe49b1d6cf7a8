/// The engine's half of DependencyKitTesting's test guard.
///
/// DependencyKitTesting binds a ``TestContext`` for each test case it scopes. While any context is
/// live, the diagnostics word sends every resolution through the diagnosed path, where
/// ``inspect(_:chain:)`` looks for three mistakes: a live leaf served
/// by production code inside a test, a global container serving work that escaped a test's scope,
/// and a global install while tests scoped to the same injector run. Production code never binds
/// a context, so none of this runs there: the hot path is the same one relaxed load.
package enum TestGuard {
    /// What DependencyKitTesting does with findings that belong to no test context.
    package struct Handlers: Sendable {
        /// Reports work that escaped a test's scope; receives the message.
        package var escapedWork: @Sendable (String) -> Void
        /// Reports a global install while tests scoped to the same injector run; receives the
        /// message.
        package var globalInstall: @Sendable (String) -> Void

        package init(
            escapedWork: @escaping @Sendable (String) -> Void,
            globalInstall: @escaping @Sendable (String) -> Void
        ) {
            self.escapedWork = escapedWork
            self.globalInstall = globalInstall
        }
    }

    private static let state = Locked<State>(State())

    private struct State {
        var handlers: Handlers?
        /// Every container installed as an injector's global, by identity, with how many storages
        /// hold it (an install per count). A storage forgets its containers when it is freed, so an
        /// identity here always belongs to a live container and is never reused by a new object.
        /// Not weak references: a weak reference gives its object a side table, and every retain
        /// and release of the global container would take the runtime's slow path.
        var globals: [ObjectIdentifier: Int] = [:]
    }

    /// Installs DependencyKitTesting's handlers; the first call wins.
    package static func setHandlers(_ handlers: Handlers) {
        state.withLock { state in
            if state.handlers == nil { state.handlers = handlers }
        }
    }

    /// Notes that `container` is now an injector's global container.
    package static func noteGlobal(_ container: AnyObject) {
        let id = ObjectIdentifier(container)
        state.withLock { $0.globals[id, default: 0] += 1 }
    }

    /// Notes that a storage which installed these containers is going away.
    package static func forgetGlobals(_ ids: [ObjectIdentifier]) {
        state.withLock { state in
            for id in ids {
                if let count = state.globals[id], count > 1 {
                    state.globals[id] = count - 1
                } else {
                    state.globals[id] = nil
                }
            }
        }
    }

    /// Whether the object with this identity is a container installed as a global.
    package static func isGlobal(_ id: ObjectIdentifier) -> Bool {
        state.withLock { $0.globals[id] != nil }
    }

    /// Reports a global install on a storage that tests are scoped to.
    package static func reportGlobalInstall(of container: Any, liveTestScopes: Int) {
        guard !Exemptions.current.contains(.globalInstalls) else { return }
        let handler = state.withLock { $0.handlers?.globalInstall }
        let type = Swift.type(of: container)
        handler?(
            """
            Installed \(type) as the global container while \(liveTestScopes) test(s) scoped to the same \
            injector were running. Tests that read the global container now see \(type), whichever test \
            they belong to. Give this test its own container instead: \
            `@Test(.dependencies(\(type)()))`, or `withDependencies(\(type)()) { … }` around the code. \
            A test that must swap the global (a test of the swap itself) can say so with \
            `.allowsGlobalInstalls`.
            """
        )
    }

    /// Looks at one resolution performed while a test context is live somewhere in the process.
    static func inspect(_ resolution: Resolution, chain: [Diagnostics.Step]) {
        let (name, type) = (resolution.name, resolution.requestedType)
        let context = TestContext.current
        if let context {
            if resolution.lifetime == .live, !Exemptions.current.contains(.liveDependencies) {
                context.report(liveLeafMessage(resolution))
            }
            return
        }
        guard let id = resolution.containerID, let containerType = resolution.containerType else { return }
        guard isGlobal(id), let handler = state.withLock({ $0.handlers?.escapedWork }) else { return }
        let chainLines = chain.isEmpty ? "  \(name) -> \(type)" : chain.map { "  \($0)" }.joined(separator: "\n")
        handler(
            """
            \(name) -> \(type) was served by the global container (\(containerType)) to work that escaped \
            a test's scope (Task.detached, a DispatchQueue closure, a callback stored for later) while \
            scoped tests were running, so it did not get its test's container. The resolution chain:
            \(chainLines)
            Capture the test's scope before the work escapes and re-enter it: \
            `let context = DependencyContext.capture()`, then `context.run { … }` inside the escaping work.
            """
        )
    }

    private static func liveLeafMessage(_ resolution: Resolution) -> String {
        let (name, type) = (resolution.name, resolution.requestedType)
        let containerName = resolution.containerType.map { String(describing: $0) } ?? "the container"
        let servedBy = resolution.implementerType.map { String(describing: $0) } ?? containerName
        return """
            \(name) -> \(type) reaches the outside world (network, disk, clock or randomness), and this \
            test's container \(containerName) served it with the production code of \(servedBy). \
            Override it in the test's container: `override func \(name) { … }` in \(containerName). \
            If this test means to go live (an end-to-end test), add `.allowsLiveDependencies` to it or \
            its suite.
            """
    }

    /// What a test or suite has opted out of.
    package struct Exemptions: OptionSet, Sendable {
        package let rawValue: Int

        package init(rawValue: Int) { self.rawValue = rawValue }

        /// Live leaves may be served by production code.
        package static let liveDependencies = Exemptions(rawValue: 1)
        /// The test may install global containers while scoped tests run.
        package static let globalInstalls = Exemptions(rawValue: 2)

        /// The exemptions in effect for the current task.
        @TaskLocal package static var current: Exemptions = []
    }
}

/// One test case guarded by DependencyKitTesting, bound to the task that runs it.
///
/// While a context exists, the diagnostics word counts it, which sends resolutions through the
/// diagnosed path process-wide; the count lives in `init`/`deinit` (not around a `withValue`
/// call) because an unstructured task started by the test inherits the context and may outlive
/// the call.
package final class TestContext: Sendable {
    /// The test context of the current task.
    @TaskLocal package static var current: TestContext?

    /// Records an issue in the test this context belongs to.
    let report: @Sendable (String) -> Void
    /// The live-scope counter of the storage the test's container is bound to.
    private let testScopes: AtomicWord?

    /// Creates a context that reports through `report`, counting itself in `testScopes` (the
    /// storage's count of live test scopes) for as long as it lives.
    package init(testScopes: AtomicWord?, report: @escaping @Sendable (String) -> Void) {
        self.report = report
        self.testScopes = testScopes
        testScopes?.add(1)
        DiagnosticsWord.add(DiagnosticsWord.testContextUnit)
    }

    deinit {
        DiagnosticsWord.add(-DiagnosticsWord.testContextUnit)
        testScopes?.add(-1)
    }
}
