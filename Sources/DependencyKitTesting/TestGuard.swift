package import DependencyKit

/// The test guard: what DependencyKitTesting puts in the engine's seam (`ResolutionInterceptor`).
///
/// DependencyKitTesting binds a ``GuardedTest`` for each test case it scopes. While any context is
/// live, the diagnostics word sends every resolution through the diagnosed path, where
/// ``inspect(_:chain:)`` looks for three mistakes: a live leaf served by production code inside a
/// test, a global container serving work that escaped a test's scope, and a global install while
/// tests scoped to the same injector run. Production code never binds a context, so none of this
/// runs there: the hot path is the same one relaxed load.
///
/// A finding made in a task that carries a context is that test's, and is recorded on it once per
/// key. A finding made where no context can be seen — a detached task, a dispatch queue, an OS
/// thread — goes to DependencyKitTesting's handler, which knows whether a test is running there at
/// all and decides how to record it (see `TestGuardReporting`).
package enum TestGuard {
    /// A finding that belongs to no test context.
    package struct Finding: Sendable {
        /// What the guard found.
        package enum Kind: Sendable, Equatable {
            /// A global container served work that ran outside every guarded test's scope.
            case escapedWork
            /// A global container was installed while tests scoped to the same injector ran.
            case globalInstall
        }

        package let kind: Kind
        /// Tells findings apart: the same key is one finding, recorded once per test, or once per
        /// process when no test can be blamed.
        package let key: String
        /// Builds the message; only called for a finding that is recorded.
        package let message: @Sendable () -> String

        package init(kind: Kind, key: String, message: @escaping @Sendable () -> String) {
            self.kind = kind
            self.key = key
            self.message = message
        }
    }

    /// What DependencyKitTesting does with findings that belong to no test context.
    package struct Handlers: Sendable {
        /// Records, warns about or drops a finding no test context carries.
        package var unattributed: @Sendable (Finding) -> Void

        package init(unattributed: @escaping @Sendable (Finding) -> Void) {
            self.unattributed = unattributed
        }
    }

    fileprivate static let state = Locked<State>(State())

    fileprivate struct State {
        var handlers: Handlers?
        /// The test contexts alive, oldest first, held weakly.
        var contexts: [WeakContext] = []
    }

    struct WeakContext {
        weak var context: GuardedTest?
    }

    /// Notes a live test context, for work that escaped its test (see `containerForEscapedWork`).
    static func register(_ context: GuardedTest) {
        state.withLock { state in
            state.contexts.removeAll { $0.context == nil }
            state.contexts.append(WeakContext(context: context))
        }
    }

    /// The finding for work outside a test that read `dependencies(as:)` while the global container is not
    /// of that type: it was handed a test's container instead of stopping the process.
    static func escapedConversionMessage(_ refined: Any.Type, global: Any) -> String {
        """
        Work outside its test's task (Task.detached, a DispatchQueue closure, a thread) read the container \
        through `dependencies(as: \(refined).self)` while tests were running. The global container, a \
        \(Swift.type(of: global)), is not a \(refined), so the work was given a running test's container \
        instead of stopping the process; in production it would stop. Capture the test's scope before the \
        work escapes and re-enter it: `let context = DependencyContainer.Context.capture()`, then \
        `context.run { … }` inside the escaping work.
        """
    }

    /// Installs DependencyKitTesting's handlers; the first call wins. From then on, work that runs outside
    /// every test's task is inspected for escaped reads of a global container.
    package static func setHandlers(_ handlers: Handlers) {
        state.withLock { state in
            if state.handlers == nil { state.handlers = handlers }
        }
        Interception.processWide.withLock { if $0.test == nil { $0.test = escapedWork } }
    }

    /// What inspects the resolutions of work that no test context can be seen in.
    static let escapedWork = EscapedWork()

    /// The test guard's interceptor for work outside every test's task: the process-wide test slot
    /// while no serial XCTest has bound its context to the process.
    final class EscapedWork: ResolutionInterceptor {
        func inspect(_ resolution: Resolution, chain: [Diagnostics.Step]) {
            TestGuard.inspect(resolution, chain: chain)
        }

        func reportGlobalInstall(of container: Any, in injectorType: Any.Type, serves: (AnyObject) -> Bool) {
            TestGuard.reportGlobalInstall(of: container, in: injectorType, serves: serves)
        }

        /// Work outside every test's task read `dependencies(as:)` and the global container is not a
        /// `Refined`: the container of the most recent live test that is one, and a warning.
        func containerForEscapedWork<Refined>(as _: Refined.Type, insteadOf global: Any) -> Refined? {
            let live = TestGuard.state.withLock { $0.contexts.compactMap(\.context) }
            guard let refined = live.reversed().lazy.compactMap({ $0.container as? Refined }).first else { return nil }
            let message = TestGuard.escapedConversionMessage(Refined.self, global: global)
            TestGuard.handOver(Finding(kind: .escapedWork, key: "escaped as \(Refined.self)") { message })
            return refined
        }
    }

    /// Whether `resolution` was served by a container an injector installed as a global. Asked of the
    /// container itself while it resolved (the injector marks what it installs), so a freed global's
    /// identity, reused by a new object, is never taken for a global.
    package static func isGlobal(_ resolution: Resolution) -> Bool {
        resolution.servedByAnInstalledGlobal
    }

    fileprivate static func handOver(_ finding: Finding) {
        state.withLock { $0.handlers?.unattributed }?(finding)
    }

    /// Reports a global install while tests with containers of their own are running.
    ///
    /// An install made in a guarded test is that test's issue; one made elsewhere goes to
    /// DependencyKitTesting's handler. A test (or suite) marked `.allowsGlobalInstalls` is exempt in
    /// its own tasks.
    package static func reportGlobalInstall(of container: Any, in injectorType: Any.Type, serves: (AnyObject) -> Bool) {
        guard !Exemptions.current.contains(.globalInstalls) else { return }
        // Only the tests whose containers this injector serves are affected by its global.
        // Counted outside the lock: the last reference to a context may be this copy's.
        let live = state.withLock { $0.contexts.compactMap(\.context) }
        let liveTestScopes = live.filter { $0.countsAsScoped && $0.container.map(serves) == true }.count
        guard liveTestScopes > 0 else { return }
        let type = Swift.type(of: container)
        let key = "install \(injectorType) \(type)"
        let message: @Sendable () -> String = {
            """
            Installed \(type) as the global container while \(liveTestScopes) test(s) scoped to the same \
            injector were running. Code that reads the global container (work that escaped a test's scope, \
            tests without a container of their own) now sees \(type), whichever test it belongs to. Give \
            the test its own container instead: `@Test(.dependencies(\(type)()))`, or \
            `withDependencies(\(type)()) { … }` around the code. A test that must swap the global (a test \
            of the swap itself) can say so with `.allowsGlobalInstalls`.
            """
        }
        if let context = GuardedTest.inEffect {
            context.reportOnce(key, message)
        } else {
            handOver(Finding(kind: .globalInstall, key: key, message: message))
        }
    }

    /// Looks at one resolution performed while a test context is live somewhere in the process.
    static func inspect(_ resolution: Resolution, chain: [Diagnostics.Step]) {
        if let context = GuardedTest.inEffect {
            if isLiveLeafServedByProductionCode(resolution, in: context) {
                let key = "live \(resolution.name) \(resolution.containerType.map { "\($0)" } ?? "")"
                context.reportOnce(key) { liveLeafMessage(resolution, in: context) }
            }
            return
        }
        guard let containerType = resolution.containerType, isGlobal(resolution) else {
            return
        }
        let (name, type) = (resolution.name, typeName(resolution.requestedType))
        if Exemptions.current.contains(.globalReads) {
            // `Context.global` marks a read of the global as intended; it does not make production code quiet.
            guard resolution.lifetime.reachesOutside else { return }
            handOver(
                Finding(kind: .escapedWork, key: "global live \(name) \(type) \(containerType)") {
                    """
                    \(name) -> \(type) reaches the outside world (network, disk, clock or randomness) and was served \
                    by the global container's production code (\(containerType)) inside \
                    `DependencyContainer.Context.global.run`, in work outside every test's task, while tests scoped \
                    by `.dependencies(...)` were running. `Context.global` says the work reads the global container \
                    on purpose; it does not make production code quiet. If the work belongs to a test, re-enter the \
                    test's scope instead: `let context = DependencyContainer.Context.capture()`, then \
                    `context.run { … }` inside the escaping work.
                    """
                })
            return
        }
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
                    it: `let context = DependencyContainer.Context.capture()`, then `context.run { … }` inside the escaping \
                    work. Work that means to read the global container says so, and this warning goes: \
                    `DependencyContainer.Context.global.run { … }` around it.
                    """
            }
        )
    }

    /// Whether the guard reports `resolution` as a live leaf served by production code: a `live {}`
    /// resolve that the test did not exempt. The one place that decides it, so that a way of
    /// replacing a leaf inside a test can answer here that the leaf is no longer production code.
    static func isLiveLeafServedByProductionCode(_ resolution: Resolution, in context: GuardedTest) -> Bool {
        resolution.lifetime.reachesOutside
            && !Exemptions.current.union(context.exemptions).contains(.liveDependencies)
    }

    /// The live-leaf issue: what was served, by whose code, which container was in effect (and which
    /// one the test installed), and the code to paste.
    static func liveLeafMessage(_ resolution: Resolution, in context: GuardedTest) -> String {
        let name = resolution.name
        let type = typeName(resolution.requestedType)
        let container = resolution.containerType.map { "\($0)" } ?? "the container"
        let installed = context.containerType.map { "\($0)" } ?? "a container"
        let effect: String
        let servedByTheGlobal = isGlobal(resolution)
        if let id = resolution.containerID, id == context.containerID {
            effect = "the container this test installed"
        } else if servedByTheGlobal {
            effect =
                "the global container, not \(installed), which this test installed: code in this test read "
                + "the global container instead of the test's scope"
        } else {
            effect = "from a `withDependencies` scope inside this test (the test installed \(installed))"
        }
        let ownCode =
            resolution.implementerType.map(ObjectIdentifier.init) == resolution.containerType.map(ObjectIdentifier.init)
        let isPartial = resolution.containerType.map { $0 is any PartialContainer.Type } ?? false
        var declaration = "\(name) -> \(type) { fresh { … } }"
        if !isExistential(resolution.requestedType) {
            // The builder builds the declared type, except for a body that is a single `return`, which
            // builds its expression's: then the signature above is not the resolve's, and says why.
            declaration += """

                (\(type) is the type the body built. A body that is a single `return` statement builds its \
                expression's type instead of the declared one: if \(name) declares another type, drop that \
                `return`, and the signature above is the resolve's.)
                """
        }
        let servedBy: String
        let fix: String
        if servedByTheGlobal, resolution.containerID != context.containerID {
            servedBy = "the global container's `live {}` code"
            fix = """
                Code in this test bypassed its scope: inside the test, `dependencies` serves the test's \
                container, and a `DependencyContainer.Context` captured in the test carries it into escaping work. Find \
                the code that read the global container directly.
                """
        } else if !ownCode, let implementer = resolution.implementerType {
            servedBy = "the production code that \(container) inherits from \(implementer)"
            fix = """
                Override it in \(container):
                    override func \(declaration)
                """
        } else if isPartial {
            servedBy = "\(container)'s `live {}` code: the protocol's default, or \(container)'s own resolve"
            fix = """
                Implement it in \(container), building the value with `fresh {}` (a double's resolves do not \
                reach the outside world):
                    func \(declaration)
                """
        } else {
            servedBy = "\(container)'s own `live {}` code"
            fix = """
                If \(container) is a test double, its resolve is production-shaped: build the value with \
                `fresh { … }` instead of `live { … }`. If it is a production container, give the test a double \
                that overrides it:
                    override func \(declaration)
                """
        }
        // The one-line override first, where it applies: a resolve without arguments, served by the
        // container the test scoped (code that bypassed the scope needs the code fixed, not an override).
        let oneLine: String
        if name.contains(":") || (servedByTheGlobal && resolution.containerID != context.containerID) {
            oneLine = ""
        } else if context.spelling == .xcTest {
            oneLine = """
                Override it in this test, in one line, after the container in `useDependencies`:
                    .override({ $0.\(name) }, with: …)
                Or, for every test that uses the container:

                """
        } else {
            oneLine = """
                Override it in this test, in one line, in the trait (or `withDependencies`, `withOverrides`):
                    .override({ $0.\(name) }, with: …)
                Or, for every test that uses the container:

                """
        }
        let goLive =
            context.spelling == .xcTest
            ? "pass `allowingLiveDependencies: true` to `useDependencies`"
            : "add `.allowsLiveDependencies` to it or its suite"
        return """
            \(name) -> \(type) reaches the outside world (network, disk, clock or randomness) and was served \
            by \(servedBy).
            Container in effect: \(container), \(effect).
            \(oneLine)\(fix)
            If this test means to go live (an end-to-end test), \(goLive).
            """
    }

    /// A type as it is written in a declaration: `any Clock` for an existential, which Swift prints as
    /// `Clock`.
    static func typeName(_ type: any Any.Type) -> String {
        let name = String(describing: type)
        guard name != "Any", name != "AnyObject" else { return name }
        return isExistential(type) ? "any \(name)" : name
    }

    /// Whether `type` is an existential (`any P`, `any P & Q`, `any P<X>`).
    ///
    /// Read from the metadata's kind, the first word of every non-class type's metadata: the kinds are
    /// part of Swift's stable ABI (`MetadataKind`: existential 0x303, extended existential 0x307). A
    /// message-only helper, never on a resolution's path.
    static func isExistential(_ type: any Any.Type) -> Bool {
        let kind = unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self)
        return kind == 0x303 || kind == 0x307
    }

    /// What a test or suite has opted out of.
    package typealias Exemptions = Interception.Exemptions
}

extension Interception.Exemptions {
    /// The exemptions in effect for the current task.
    package static var current: Self { Interception.current.exemptions }

    /// Runs `operation` with `exemptions` added to the current task's.
    package static func adding<R>(
        _ exemptions: Self,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> R
    ) async rethrows -> R {
        try await Interception.updating(
            { $0.exemptions.formUnion(exemptions) }, isolation: isolation, operation: operation)
    }
}

/// One test case guarded by DependencyKitTesting, bound to the task that runs it.
///
/// While a context exists, the diagnostics word counts it, which sends resolutions through the
/// diagnosed path process-wide; the count lives in `init`/`deinit` (not around a `withValue`
/// call) because an unstructured task started by the test inherits the context and may outlive
/// the call.
package final class GuardedTest: ResolutionInterceptor {
    /// The test context of the current task.
    package static var current: GuardedTest? { Interception.current.test as? GuardedTest }

    /// The context that findings made here belong to: the current task's, else the one of the test
    /// that runs alone in the process (an XCTest case), set by ``bindToProcess()``.
    package static var inEffect: GuardedTest? { Interception.test as? GuardedTest }

    /// Runs `operation` with this context as the current task's.
    package func bind<R>(
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> R
    ) async rethrows -> R {
        try await Interception.updating({ $0.test = self }, isolation: isolation, operation: operation)
    }

    /// Runs `operation` with this context as the current task's.
    package func bind<R>(operation: () throws -> R) rethrows -> R {
        try Interception.updating({ $0.test = self }, operation: operation)
    }

    /// Looks at a resolution of this test's work (see ``TestGuard/inspect(_:chain:)``).
    package func inspect(_ resolution: Resolution, chain: [Diagnostics.Step]) {
        TestGuard.inspect(resolution, chain: chain)
    }

    /// Records a problem of this test's work, once per key.
    package func record(_ key: String, _ message: () -> String) -> Bool {
        reportOnce(key, message)
        return true
    }

    package func reportGlobalInstall(of container: Any, in injectorType: Any.Type, serves: (AnyObject) -> Bool) {
        TestGuard.reportGlobalInstall(of: container, in: injectorType, serves: serves)
    }

    /// Work that escaped this test (XCTest's process-wide context) read its container through
    /// `dependencies(as:)`: the test's container, when it is a `Refined`, and an issue on the test.
    package func containerForEscapedWork<Refined>(as _: Refined.Type, insteadOf global: Any) -> Refined? {
        guard let refined = container as? Refined else { return nil }
        reportOnce("escaped as \(Refined.self)") { TestGuard.escapedConversionMessage(Refined.self, global: global) }
        return refined
    }

    /// Records an issue in the test this context belongs to.
    private let report: @Sendable (String) -> Void
    /// The count of live test scopes this context counts itself in, if any.
    private let testScopes: AtomicWord?
    /// Whether this test runs with a container of its own, scoped to its task (not process-wide).
    var countsAsScoped: Bool { testScopes != nil }
    /// The container the test installed, by identity, and its class.
    let containerID: ObjectIdentifier?
    let containerType: (any AnyObject.Type)?
    /// The container the test runs with: what work that escaped the test reads through
    /// `dependencies(as:)` when the global container is not of the type it asks for.
    let container: (any AnyObject & Sendable)?
    /// What the test opted out of, for a test framework without task-local traits (XCTest).
    let exemptions: TestGuard.Exemptions
    /// The keys of the findings already recorded in this test.
    private let reported = Locked<Set<String>>([])
    /// Which test framework's words the messages use.
    let spelling: Spelling

    /// The test framework a context reports to, for the fixes its messages suggest.
    package enum Spelling: Sendable {
        /// Swift Testing: the `.dependencies(…)` trait and its `.allowsLiveDependencies` opt-out.
        case swiftTesting
        /// XCTest: `useDependencies(_:_:allowingLiveDependencies:)`.
        case xcTest
    }

    /// Creates a guarded test that runs with a container of its own, counting itself in the live test
    /// scopes that a global install is reported against.
    package convenience init(
        scopedContainer container: any AnyObject & Sendable,
        exemptions: TestGuard.Exemptions = [],
        spelling: Spelling = .swiftTesting,
        report: @escaping @Sendable (String) -> Void
    ) {
        self.init(
            container: container, testScopes: InstalledContainers.testScopes, exemptions: exemptions,
            spelling: spelling, report: report)
    }

    /// Creates a guarded test that reports through `report`, counting itself in `testScopes` for as long
    /// as it lives.
    /// - Parameters:
    ///   - container: The container the test runs with, so that messages can tell it from the
    ///     container actually in effect.
    ///   - testScopes: The count of live test scopes (`InstalledContainers.testScopes`), or `nil` for a
    ///     test whose container is in effect for the whole process (XCTest).
    ///   - exemptions: What the test opted out of, besides the task's ``TestGuard/Exemptions/current``.
    ///   - spelling: The test framework whose words the messages use.
    ///   - report: Records one issue in the test.
    package init(
        container: (any AnyObject & Sendable)? = nil,
        testScopes: AtomicWord?,
        exemptions: TestGuard.Exemptions = [],
        spelling: Spelling = .swiftTesting,
        report: @escaping @Sendable (String) -> Void
    ) {
        self.spelling = spelling
        self.report = report
        self.exemptions = exemptions
        self.testScopes = testScopes
        self.container = container
        containerID = container.map(ObjectIdentifier.init)
        containerType = container.map { type(of: $0) }
        testScopes?.add(1)
        DiagnosticsWord.count(in: .testContext)
        TestGuard.register(self)
    }

    deinit {
        DiagnosticsWord.add(-DiagnosticsWord.testContextUnit)
        testScopes?.add(-1)
    }

    /// Records the finding `key` in this test, unless it was recorded already.
    func reportOnce(_ key: String, _ message: () -> String) {
        let isNew = reported.withLock { $0.insert(key).inserted }
        if isNew { report(message()) }
    }

    /// Makes this context the one every thread's findings belong to, for a test framework that runs
    /// one test at a time in a process (XCTest).
    /// - Returns: The context bound before, to hand back to ``restoreProcessBinding(_:)``.
    package func bindToProcess() -> GuardedTest? {
        Interception.processWide.withLock { bound in
            defer { bound.test = self }
            return bound.test as? GuardedTest
        }
    }

    /// Binds `previous` again, as it was before a ``bindToProcess()``.
    package static func restoreProcessBinding(_ previous: GuardedTest?) {
        Interception.processWide.withLock { $0.test = previous ?? TestGuard.escapedWork }
    }
}
