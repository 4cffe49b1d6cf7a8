package import DependencyKit

/// One test case guarded by DependencyKitTesting, bound to the task that runs it.
///
/// While a context exists, the diagnostics word counts it, which sends resolutions through the
/// diagnosed path process-wide; the count lives in `init`/`deinit` (not around a `withValue`
/// call) because an unstructured task started by the test inherits the context and may outlive
/// the call.
package final class GuardedTest: ResolutionInterceptor, InjectionObserver {
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

    /// Observes a resolution for the guard; a watch (``EndedTestWatch``) warns of every resolution, once
    /// per resolve.
    package func observe(_ resolution: Resolution, parent _: Int?, chain: () -> [Diagnostics.Step]) -> Int? {
        if isEndedWatch {
            let step = resolution.step
            reportOnce("after \(step.name) \(step.requestedType) \(step.container ?? "")") { endedWatchMessage(step) }
        } else if TestGuard.isLiveLeafServedByProductionCode(resolution, in: self) {
            let key = "live \(resolution.name) \(resolution.containerType.map { "\($0)" } ?? "")"
            reportOnce(key) { TestGuard.liveLeafMessage(resolution, in: self) }
        }
        return nil
    }

    package func reportGlobalInstall(of container: Any, in injectorType: Any.Type, serves: (AnyObject) -> Bool) {
        if !isEndedWatch, let finding = TestGuard.globalInstall(of: container, in: injectorType, serves: serves) {
            reportOnce(finding.key, finding.message)
        }
    }

    /// The ended-test watch's warning for a resolution made after its test ended (the watch reports it as a
    /// warning: it is made with `report` a warning).
    func endedWatchMessage(_ step: Diagnostics.Step) -> String {
        let (served, test) = (step.container.map { " It was served by \($0)." } ?? "", testName ?? "the test")
        return """
            \(step.name) -> \(step.requestedType) was resolved after \(test) ended and before the next test \
            began, outside every test's `useDependencies`: by code run between tests (a tearDown()), or by \
            work that carries no trace of the test that started it (a Task.detached, a Task {} started \
            under `useDependencies`, a queue's closure, a thread), which may be any test before the next \
            one.\(served) Work still running when the next test begins reads that test's container \
            and overrides, and cannot be told from the next test's own work, so it is not reported then. \
            Await or cancel work before the test that starts it returns.
            """
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

    /// Work that escaped this test (XCTest's process-wide context) read its container through
    /// `dependencies(as:)`: the test's container, when it is a `Refined`, and an issue on the test.
    /// When it is not, the work cannot be this test's own reading its own container: it gets the newest
    /// container of that type another test ran with, and a warning that blames no test.
    package func containerForEscapedWork<Refined>(as _: Refined.Type, insteadOf inEffect: Any) -> Refined? {
        let own = container as? Refined
        let refined = own ?? TestGuard.container(as: Refined.self)
        reportOnce("escaped as \(Refined.self)", blaming: own != nil) {
            TestGuard.escapedConversionMessage(Refined.self, inEffect: inEffect, given: refined)
        }
        return refined
    }

    /// Records an issue in the test this context belongs to.
    private let report: @Sendable (String) -> Void
    /// Records a warning that blames no test (see ``TestGuardReporting``).
    let warn: @Sendable (String) -> Void
    /// The test's name, as its framework prints it, for what is found after it ended.
    let testName: String?
    /// Whether this context watches the time after its XCTest ended (see ``EndedTestWatch``).
    package let isEndedWatch: Bool
    /// The count of live test scopes this context counts itself in, if any.
    /// Counted in while the test runs with a container of its own, scoped to its task (not process-wide).
    let testScopes: AtomicWord?
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
        /// Swift Testing (the `.dependencies(…)` trait, `.allowsLiveDependencies`), or XCTest
        /// (`useDependencies(_:_:allowingLiveDependencies:)`).
        case swiftTesting, xcTest
    }

    /// Creates a guarded test that reports through `report`, counting itself in `testScopes` for as long
    /// as it lives.
    /// - Parameters:
    ///   - container: The container the test runs with, so that messages can tell it from the
    ///     container actually in effect.
    ///   - testScopes: The count of live test scopes that a global install is reported against: by
    ///     default `InstalledContainers.testScopes`, for a test that runs with a container of its own;
    ///     `nil` for a test whose container is in effect for the whole process (XCTest).
    ///   - exemptions: What the test opted out of, besides the task's.
    ///   - spelling: The test framework whose words the messages use.
    ///   - testName: The test's name, for what is found after it ended.
    ///   - isEndedWatch: Whether the context watches the time after its XCTest ended.
    ///   - warn: Records a warning that fails no test; by default, hands it to DependencyKitTesting's handler as
    ///     a finding no test context carries.
    ///   - report: Records one issue in the test.
    package init(
        container: (any AnyObject & Sendable)? = nil,
        testScopes: AtomicWord? = InstalledContainers.testScopes,
        exemptions: TestGuard.Exemptions = [],
        spelling: Spelling = .swiftTesting,
        testName: String? = nil,
        isEndedWatch: Bool = false,
        warn: @escaping @Sendable (String) -> Void = TestGuard.handOverWarning,
        report: @escaping @Sendable (String) -> Void
    ) {
        (self.container, self.testScopes, self.exemptions) = (container, testScopes, exemptions)
        (self.spelling, self.testName, self.warn, self.report) = (spelling, testName, warn, report)
        self.isEndedWatch = isEndedWatch
        testScopes?.add(1)
        DiagnosticsWord.register(.testContext)
        TestGuard.register(self)
    }

    deinit {
        DiagnosticsWord.unregister(.testContext)
        testScopes?.add(-1)
    }

    /// Records the finding `key` in this test, unless it was recorded already; with `blaming` false, as a
    /// warning that blames no test.
    func reportOnce(_ key: String, blaming: Bool = true, _ message: () -> String) {
        let isNew = reported.withLock { $0.insert(key).inserted }
        guard isNew else { return }
        guard blaming else { return warn(message()) }
        guard hasEnded.loadAcquire() != 0 else { return report(message()) }
        let test = testName ?? "the test"
        warn(
            message() + """

                Found after \(test) ended, in work \(test) left running: a `Task {}` it started, which inherited \
                its scope. Recorded as a warning, since the test can no longer fail. Await or cancel the work \
                before the test returns.
                """)
    }
}
