internal import DependencyKit

/// The test guard: what DependencyKitTesting puts in the engine's seams (`ResolutionInterceptor`, which
/// observes resolutions, and `InjectionObserver`, which hears of installs, escaped `dependencies(as:)`
/// reads and malformed overrides), and the policy the engine leaves to it: what a test is exempt from,
/// what escaped work is given, what is reported where.
///
/// DependencyKitTesting binds a ``GuardedTest`` for each test case it scopes. While any context is
/// live, the diagnostics word sends every resolution through the diagnosed path, where the guard's
/// interceptors (``GuardedTest``, ``EscapedWork``) look for three mistakes: a live leaf served by production code inside a
/// test, a global container serving work that escaped a test's scope, and a global install while
/// tests scoped to the same injector run. Production code never binds a context, so none of this
/// runs there: the hot path is the same one relaxed load.
///
/// A finding made in a task that carries a context is that test's, and is recorded on it once per
/// key. A finding made where no context can be seen — a detached task, a dispatch queue, an OS
/// thread — goes to DependencyKitTesting's handler, which knows whether a test is running there at
/// all and decides how to record it (see `TestGuardReporting`).
package enum TestGuard {
    /// What a test, a suite or a piece of work has opted out of.
    package struct Exemptions: OptionSet, Sendable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }

        /// Live leaves may be served by production code (`.allowsLiveDependencies`).
        package static let liveDependencies = Exemptions(rawValue: 1)
        /// The test may install global containers while scoped tests run (`.allowsGlobalInstalls`).
        package static let globalInstalls = Exemptions(rawValue: 2)
    }

    /// What the current task is exempt from: the traits of its test and suites.
    @TaskLocal package static var exemptions: Exemptions = []

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
    }

    static let state = Locked<State>(State())

    struct State {
        /// What DependencyKitTesting does with a finding no test context carries: records, warns or drops it.
        var unattributed: (@Sendable (Finding) -> Void)?
        /// The test contexts alive, oldest first, held weakly.
        var contexts: [WeakContext] = []
        /// The container of the latest guarded test of each container class, newest last: what escaped
        /// work that asks for a type no running test has is given. One per class the test target declares,
        /// kept after its test ends, so that such work never finds nothing of its type, however many tests
        /// of other classes ran since; a count limit would drop one under a parallel run.
        var recent: [any AnyObject & Sendable] = []
    }

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
    }

    /// Installs DependencyKitTesting's handler of findings no test context carries; the first call wins.
    /// From then on, work that runs outside every test's task is inspected for escaped reads of a global
    /// container.
    package static func setUnattributedHandler(_ handler: @escaping @Sendable (Finding) -> Void) {
        state.withLock { state in
            if state.unattributed == nil { state.unattributed = handler }
        }
        guard Interception.processWide.test == nil else { return }
        Interception.updateProcessWide { if $0.test == nil { $0.test = escapedWork } }
    }

    static func handOver(_ finding: Finding) {
        state.withLock { $0.unattributed }?(finding)
    }

    /// Hands a warning to DependencyKitTesting's handler, as a finding no test context carries.
    package static let handOverWarning: @Sendable (String) -> Void = {
        handOver(Finding(kind: .escapedWork, key: $0) { [message = $0] in message })
    }

    /// The finding for a global install while tests with containers of their own are running, or `nil`
    /// when none of them is affected. A guarded test records it as its issue; elsewhere it goes to
    /// DependencyKitTesting's handler. A test (or suite) marked `.allowsGlobalInstalls` is exempt in its
    /// own tasks.
    static func globalInstall(of container: Any, in injectorType: Any.Type, serves: (AnyObject) -> Bool) -> Finding? {
        guard !exemptions.contains(.globalInstalls) else { return nil }
        // Only the tests whose containers this injector serves are affected by its global.
        // Counted outside the lock: the last reference to a context may be this copy's.
        let live = state.withLock { $0.contexts.compactMap(\.context) }
        let liveTestScopes = live.filter { $0.testScopes != nil && $0.container.map(serves) == true }.count
        guard liveTestScopes > 0 else { return nil }
        let type = Swift.type(of: container)
        return Finding(kind: .globalInstall, key: "install \(injectorType) \(type)") {
            """
            Installed \(type) as the global container while \(liveTestScopes) test(s) scoped to the same \
            injector were running. Code that reads the global container (work that escaped a test's scope, \
            tests without a container of their own) now sees \(type), whichever test it belongs to. Give \
            the test its own container instead: `@Test(.dependencies(\(type)(…)))`, or \
            `withDependencies(\(type)(…)) { … }` around the code, with what its `init` takes in place of `…` \
            (nothing if it takes nothing; the trait makes a new container for each test). A test that must \
            swap the global (a test of the swap itself) can say so with `.allowsGlobalInstalls`.
            """
        }
    }
}
