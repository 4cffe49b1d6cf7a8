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
            /// Work outside every guarded test read `dependencies(as:)` of a type the container in effect
            /// there is not, and was given a test's container instead of stopping.
            case escapedConversion
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
        /// Per injector type, how many live guarded tests it serves, as of ``contextsChanged``'s count.
        var served: [ObjectIdentifier: (generation: Int, count: Int)] = [:]
        /// The container of the latest guarded test of each container class, newest last: what escaped
        /// work that asks for a type no running test has is given. One per class the test target declares,
        /// kept after its test ends, so that such work never finds nothing of its type, however many tests
        /// of other classes ran since; a count limit would drop one under a parallel run.
        var recent: [any AnyObject & Sendable] = []
    }

    /// Counts every guarded test begun or ended, so that what an injector serves is worked out again
    /// only when the tests alive change (not on every install of a loop that installs).
    static let contextsChanged = AtomicWord(0)

    struct WeakContext {
        weak var context: GuardedTest?
    }

    /// Notes a live test context, for work that escaped its test (see `containerForEscapedWork`).
    static func register(_ context: GuardedTest) {
        state.withLock { state in
            state.contexts.removeAll { $0.context == nil }
            state.contexts.append(WeakContext(context: context))
            if let container = context.container {
                state.recent.removeAll { Swift.type(of: $0) == Swift.type(of: container) }
                state.recent.append(container)
            }
        }
        contextsChanged.add(1)
    }

    /// A container of type `Refined` for work that escaped its test: `first`'s container when it is one
    /// (the test the work escaped from, where that is known), else the newest running test's that is
    /// one, else the newest of the latest tests' (``State/recent``); `nil` when no test ran with one.
    static func container<Refined>(as _: Refined.Type, preferring first: GuardedTest?) -> Refined? {
        if let refined = first?.container as? Refined { return refined }
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
        /// `Refined`: the container of the newest test that is one (see ``TestGuard/container(as:preferring:)``),
        /// and a warning.
        func containerForEscapedWork<Refined>(as _: Refined.Type, insteadOf global: Any) -> Refined? {
            let refined = TestGuard.container(as: Refined.self, preferring: nil)
            let message = TestGuard.escapedConversionMessage(Refined.self, inEffect: global, given: refined)
            TestGuard.handOver(Finding(kind: .escapedConversion, key: "escaped as \(Refined.self)") { message })
            return refined
        }
    }

    /// Whether the object with this identity is a container installed as a global in an injector.
    /// Installed containers are kept as long as their injector, so a freed global's identity, reused by
    /// a new object, is never taken for a global.
    package static func isGlobal(_ id: ObjectIdentifier) -> Bool {
        InstalledContainers.contains(id)
    }

    static func handOver(_ finding: Finding) {
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
        let injector = ObjectIdentifier(injectorType)
        let generation = contextsChanged.loadRelaxed()
        let known = state.withLock { state in
            state.served[injector].flatMap { $0.generation == generation ? $0.count : nil }
        }
        let liveTestScopes =
            known
            ?? {
                let live = state.withLock { $0.contexts.compactMap(\.context) }
                let count = live.filter { $0.countsAsScoped && $0.container.map(serves) == true }.count
                state.withLock { $0.served[injector] = (generation, count) }
                return count
            }()
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
        guard let id = resolution.containerID, let containerType = resolution.containerType, isGlobal(id) else {
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
        if let id = resolution.containerID, let overrides = Interception.overrides as? OverrideSet,
            overrides.hasRelativeOverride(of: resolution.name, type: resolution.requestedType, container: id)
        {
            return relativeOverrideOfLiveLeafMessage(resolution, in: context)
        }
        let name = resolution.name
        let type = typeName(resolution.requestedType)
        let container = resolution.containerType.map { "\($0)" } ?? "the container"
        let installed = context.containerType.map { "\($0)" } ?? "a container"
        let effect: String
        let servedByTheGlobal = resolution.containerID.map(isGlobal) ?? false
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
            // builds its expression's. Nothing at run time tells the two apart, so the note says only
            // what holds either way.
            declaration += """

                (\(type) is the type \(name)'s body built. If \(name) declares another type, write that one.)
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

    /// The live-leaf issue for a resolve the test overrides relatively: the override builds on the live
    /// value, so the live code ran; the choices are a value override or going live on purpose.
    static func relativeOverrideOfLiveLeafMessage(_ resolution: Resolution, in context: GuardedTest) -> String {
        let name = resolution.name
        let container = resolution.containerType.map { "\($0)" } ?? "the container"
        let place =
            context.spelling == .xcTest
            ? "after the container in `useDependencies`" : "in the trait (or `withOverrides`)"
        let goLive =
            context.spelling == .xcTest
            ? "pass `allowingLiveDependencies: true` to `useDependencies`"
            : "add `.allowsLiveDependencies` to it or its suite"
        return """
            \(name) -> \(typeName(resolution.requestedType)) reaches the outside world (network, disk, clock or \
            randomness), and this test overrides it relatively: `.override({ $0.\(name) }) { … }` transforms the \
            value \(container)'s `live {}` code serves, so that code ran.
            To keep the test from going live, replace the relative override with a value, \(place):
                .override({ $0.\(name) }, with: …)
            If this test decorates the live value on purpose (an end-to-end test), \(goLive).
            """
    }

    /// A type as it is written in a declaration, so that a suggested line compiles when pasted: `any Clock`
    /// for an existential, which Swift prints as `Clock`; a nested type with the types it is nested in
    /// (`Outer.Reader`), and a generic one with its arguments (`Box<Outer.Reader>`), without module names.
    static func typeName(_ type: any Any.Type) -> String {
        let name = unqualified(String(reflecting: type))
        guard name != "Any", name != "AnyObject" else { return name }
        return isExistential(type) ? "any \(name)" : name
    }

    /// `reflected` (`String(reflecting:)` of a type) with the module name that starts each qualified name
    /// dropped, and the contexts a private or local type (`(unknown context at $…)`) or a type nested in
    /// another module's type (`(extension in Module):`) is printed with.
    package static func unqualified(_ reflected: String) -> String {
        var output = ""
        var path: [Substring] = []
        var rest = Substring(reflected)
        func flush() {
            output += path.dropFirst(path.count > 1 ? 1 : 0).joined(separator: ".")
            path = []
        }
        while let first = rest.first {
            if first == "(", rest.hasPrefix("(extension in "), let close = rest.firstIndex(of: ":") {
                // A type nested in an extension of another module's type: written as that type's member.
                rest = rest[rest.index(after: close)...]
                path = []
            } else if first == "(", rest.hasPrefix("(unknown context at "), let close = rest.firstIndex(of: ")") {
                // The module and the context go; what follows is the name as written where it is visible.
                path = [""]
                rest = rest[rest.index(after: close)...]
                if rest.first == "." { rest = rest.dropFirst() }
            } else if first.isLetter || first == "_" {
                let identifier = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                path.append(identifier)
                rest = rest.dropFirst(identifier.count)
                if rest.first == ".", rest.dropFirst().first.map({ $0.isLetter || $0 == "_" || $0 == "(" }) == true {
                    rest = rest.dropFirst()
                } else {
                    flush()
                }
            } else {
                flush()
                output.append(first)
                rest = rest.dropFirst()
            }
        }
        flush()
        return output
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

    /// Records a problem of this test's work, once per key: a malformed override.
    package func record(_ key: String, _ message: () -> String) -> Bool {
        recordedProblems.add(1)
        reportOnce(key, message)
        return true
    }

    /// How many malformed overrides this test's work recorded: the trait does not run the body of a test
    /// whose overrides could not all be recorded.
    let recordedProblems = AtomicWord(0)

    /// Whether the test this context belongs to has returned: what is found afterwards was found in work
    /// the test left running, which still carries its context (a `Task {}` that inherited its scope).
    private let hasEnded = AtomicWord(0)

    /// Notes that the test has returned; from then on, findings are warnings naming the test that left the
    /// work running, since the test can no longer fail.
    package func end() { hasEnded.add(1) }

    package func reportGlobalInstall(of container: Any, in injectorType: Any.Type, serves: (AnyObject) -> Bool) {
        TestGuard.reportGlobalInstall(of: container, in: injectorType, serves: serves)
    }

    /// Work that escaped this test (XCTest's process-wide context) read its container through
    /// `dependencies(as:)`: the test's container, when it is a `Refined`, and an issue on the test.
    /// When it is not, the work cannot be this test's own reading its own container: it gets the newest
    /// container of that type another test ran with, and a warning that blames no test.
    package func containerForEscapedWork<Refined>(as _: Refined.Type, insteadOf inEffect: Any) -> Refined? {
        let key = "escaped as \(Refined.self)"
        if let refined = container as? Refined {
            reportOnce(key) { TestGuard.escapedConversionMessage(Refined.self, inEffect: inEffect, given: refined) }
            return refined
        }
        let refined = TestGuard.container(as: Refined.self, preferring: nil)
        if reported.withLock({ $0.insert(key).inserted }) {
            warn(TestGuard.escapedConversionMessage(Refined.self, inEffect: inEffect, given: refined))
        }
        return refined
    }

    /// Records an issue in the test this context belongs to.
    private let report: @Sendable (String) -> Void
    /// Records a warning that blames no test (see ``TestGuardReporting``).
    let warn: @Sendable (String) -> Void
    /// The test's name, as its framework prints it, for what is found after it ended.
    let testName: String?
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
    let reported = Locked<Set<String>>([])
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
        testName: String? = nil,
        warn: @escaping @Sendable (String) -> Void = GuardedTest.handOverWarning,
        report: @escaping @Sendable (String) -> Void
    ) {
        self.init(
            container: container, testScopes: InstalledContainers.testScopes, exemptions: exemptions,
            spelling: spelling, testName: testName, warn: warn, report: report)
    }

    /// Hands a warning to DependencyKitTesting's handler, as a finding no test context carries.
    package static let handOverWarning: @Sendable (String) -> Void = { message in
        TestGuard.handOver(TestGuard.Finding(kind: .escapedWork, key: message) { message })
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
    ///   - testName: The test's name, for what is found after it ended.
    ///   - warn: Records a warning that fails no test.
    ///   - report: Records one issue in the test.
    package init(
        container: (any AnyObject & Sendable)? = nil,
        testScopes: AtomicWord?,
        exemptions: TestGuard.Exemptions = [],
        spelling: Spelling = .swiftTesting,
        testName: String? = nil,
        warn: @escaping @Sendable (String) -> Void = GuardedTest.handOverWarning,
        report: @escaping @Sendable (String) -> Void
    ) {
        self.spelling = spelling
        self.report = report
        self.warn = warn
        self.testName = testName
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
        TestGuard.contextsChanged.add(1)
    }

    /// Records the finding `key` in this test, unless it was recorded already.
    func reportOnce(_ key: String, _ message: () -> String) {
        let isNew = reported.withLock { $0.insert(key).inserted }
        guard isNew else { return }
        guard hasEnded.loadAcquire() != 0 else { return report(message()) }
        let test = testName ?? "the test"
        warn(
            message() + """

                Found after \(test) ended, in work \(test) left running: a `Task {}` it started, which inherited \
                its scope. Recorded as a warning, since the test can no longer fail. Await or cancel the work \
                before the test returns.
                """)
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
