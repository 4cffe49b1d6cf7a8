import DependencyKitTesting
import Dispatch
import Foundation
import Testing

@testable import DependencyKit

/// A container whose cached lifetimes build on a leaf that tests override.
protocol ClockworkDependency: DependencyContainer {
    func resolveHour() -> Int
    func resolveZone() -> String
    func resolveSharedGreeter() -> HourGreeter
    func resolveWeakGreeter() -> HourGreeter
    func resolveScopedGreeter() -> HourGreeter
    func resolveZoneLabel() -> HourGreeter
    func resolveOuter() -> HourGreeter
    func resolveUser(id: Int) -> String
    func resolveCounter() -> Int
    func resolveAsyncGreeter() async -> HourGreeter
}

/// A class, so that identity shows which instance was served.
final class HourGreeter: Sendable {
    let hour: Int
    let inner: HourGreeter?

    init(hour: Int, inner: HourGreeter? = nil) {
        self.hour = hour
        self.inner = inner
    }
}

extension Lifetime {
    static let clockworkSession = Lifetime("clockwork session")
}

final class ClockworkCore: DependencyContainer, ClockworkDependency, @unchecked Sendable {
    let production = RouteRecorder()

    func resolveHour() -> Int {
        live {
            production.note("hour")
            return 9
        }
    }
    func resolveZone() -> String {
        live {
            production.note("zone")
            return "UTC"
        }
    }
    func resolveSharedGreeter() -> HourGreeter { shared { HourGreeter(hour: resolveHour()) } }
    func resolveWeakGreeter() -> HourGreeter { weakShared { HourGreeter(hour: resolveHour()) } }
    func resolveScopedGreeter() -> HourGreeter { shared(in: .clockworkSession) { HourGreeter(hour: resolveHour()) } }
    /// Shared, and depends on the zone only.
    func resolveZoneLabel() -> HourGreeter { shared { HourGreeter(hour: resolveZone().count) } }
    /// Shared on top of another shared instance that depends on the hour.
    func resolveOuter() -> HourGreeter { shared { HourGreeter(hour: 0, inner: resolveSharedGreeter()) } }
    func resolveUser(id: Int) -> String {
        fresh {
            production.note("user \(id)")
            return "user \(id)"
        }
    }
    func resolveCounter() -> Int { fresh { 0 } }
    func resolveAsyncGreeter() async -> HourGreeter {
        await shared { () async -> HourGreeter in HourGreeter(hour: resolveHour()) }
    }
}

let clockworkInjector = Injector<any ClockworkDependency> { ClockworkCore() }

/// Collects what a test context reports, in place of a Swift Testing issue.
final class ReportedProblems: Sendable {
    private let messages = Locked<[String]>([])

    var all: [String] { messages.withLock { $0 } }

    /// What was reported about overrides: not the guard's live-leaf findings.
    var aboutOverrides: [String] { all.filter { !$0.contains("`live {}`") } }

    /// Runs `body` in a test context that reports here.
    func collecting<R>(_ body: () throws -> R) rethrows -> R {
        let context = GuardedTest(testScopes: nil) { message in self.messages.withLock { $0.append(message) } }
        return try context.bind(operation: body)
    }
}

@Suite struct ExactOverrideTests {
    // MARK: 1. Nothing built under an override is served where it is not

    @Test func aSharedInstanceBuiltUnderAnOverrideStaysWithIt() {
        let container = ClockworkCore()
        withDependencies(container) {
            let inside = clockworkInjector.withOverrides(.override({ $0.resolveHour() }, with: 23)) {
                clockworkInjector.dependencies.resolveSharedGreeter()
            }
            #expect(inside.hour == 23)
            let after = clockworkInjector.dependencies.resolveSharedGreeter()
            #expect(after.hour == 9)
            #expect(after !== inside)
            #expect(clockworkInjector.dependencies.resolveSharedGreeter() === after)
        }
    }

    @Test func perRequestOverridesOfALongLivedContainerEachSeeTheirOwn() {
        withDependencies(ClockworkCore()) {
            for hour in [20, 21, 22] {
                let seen = clockworkInjector.withOverrides(.override({ $0.resolveHour() }, with: hour)) {
                    (
                        clockworkInjector.dependencies.resolveSharedGreeter().hour,
                        clockworkInjector.dependencies.resolveWeakGreeter().hour,
                        clockworkInjector.dependencies.resolveScopedGreeter().hour,
                        clockworkInjector.dependencies.resolveOuter().inner?.hour
                    )
                }
                #expect(seen.0 == hour && seen.1 == hour && seen.2 == hour && seen.3 == hour)
            }
            #expect(clockworkInjector.dependencies.resolveSharedGreeter().hour == 9)
            #expect(clockworkInjector.dependencies.resolveScopedGreeter().hour == 9)
            #expect(clockworkInjector.dependencies.resolveOuter().inner?.hour == 9)
        }
    }

    @Test func aSharedInstanceMadeBeforeTheScopeReflectsTheOverrideInsideIt() {
        withDependencies(ClockworkCore()) {
            let before = clockworkInjector.dependencies.resolveSharedGreeter()
            let outerBefore = clockworkInjector.dependencies.resolveOuter()
            clockworkInjector.withOverrides(.override({ $0.resolveHour() }, with: 23)) {
                let inside = clockworkInjector.dependencies.resolveSharedGreeter()
                #expect(inside.hour == 23)
                #expect(clockworkInjector.dependencies.resolveSharedGreeter() === inside)
                #expect(clockworkInjector.dependencies.resolveOuter().inner === inside)
            }
            #expect(clockworkInjector.dependencies.resolveSharedGreeter() === before)
            #expect(clockworkInjector.dependencies.resolveOuter() === outerBefore)
        }
    }

    @Test func anOverrideScopeOwnsEveryCachedInstanceItResolvesEvenOnesThatReadNoOverride() {
        let container = ClockworkCore()
        withDependencies(container) {
            let label = clockworkInjector.dependencies.resolveZoneLabel()
            let inside = clockworkInjector.withOverrides(.override({ $0.resolveHour() }, with: 23)) {
                let first = clockworkInjector.dependencies.resolveZoneLabel()
                #expect(clockworkInjector.dependencies.resolveZoneLabel() === first)
                return first
            }
            // Built inside, from the scope's own table; the container's instance was never read or written.
            #expect(inside !== label)
            #expect(clockworkInjector.dependencies.resolveZoneLabel() === label)
        }
        #expect(container.production.notes == ["zone", "zone"])
    }

    @Test func anAsyncSharedInstanceBuiltUnderAnOverrideStaysWithIt() async {
        await withDependencies(ClockworkCore()) {
            let inside = await clockworkInjector.withOverrides(.override({ $0.resolveHour() }, with: 23)) {
                await clockworkInjector.dependencies.resolveAsyncGreeter()
            }
            #expect(inside.hour == 23)
            #expect(await clockworkInjector.dependencies.resolveAsyncGreeter().hour == 9)
        }
    }

    @Test func parallelScopesOfOneContainerEachGetTheirOwnDependentInstance() async {
        let container = ClockworkCore()
        await withDependencies(container) {
            await withTaskGroup(of: (Int, Int).self) { group in
                for hour in 0..<200 {
                    group.addTask {
                        await clockworkInjector.withOverrides(.override({ $0.resolveHour() }, with: hour)) {
                            await Task.yield()
                            return (hour, clockworkInjector.dependencies.resolveSharedGreeter().hour)
                        }
                    }
                }
                for await (hour, seen) in group { #expect(seen == hour) }
            }
            #expect(clockworkInjector.dependencies.resolveSharedGreeter().hour == 9)
        }
    }

    // MARK: 2. No counter that wraps

    @Test func thousandsOfNestedOverrideScopesGiveExactResults() {
        func nest(_ level: Int) -> Int {
            guard level < 1_100 else { return clockworkInjector.dependencies.resolveHour() }
            return clockworkInjector.withOverrides(.override({ $0.resolveHour() }, with: level)) { nest(level + 1) }
        }
        let innermost = withDependencies(ClockworkCore()) { nest(0) }
        #expect(innermost == 1_099)
    }

    @Test func aThousandNestedRelativeOverridesAddUp() {
        func nest(_ level: Int) -> Int {
            guard level < 1_000 else { return clockworkInjector.dependencies.resolveHour() }
            return clockworkInjector.withOverrides(.override({ $0.resolveHour() }) { $0 + 1 }) { nest(level + 1) }
        }
        let container = ClockworkCore()
        let hour = withDependencies(container) { nest(0) }
        #expect(hour == 1_009)
        // Each relative override is found on its type's first use by running its resolve once as its base,
        // in a view where the overrides still waiting are not in effect: 1,000 runs, linear in the depth.
        // The last one found is the innermost, whose base is then exact and serves this resolution.
        #expect(container.production.notes == Array(repeating: "hour", count: 1_000))
    }

    @Test func manyOverrideScopesAliveAtOnceEachAnswerTheirOwn() async {
        // 1,100 scopes suspended at the same moment: past the old 10-bit count (1,023).
        let gate = AsyncGate(expected: 1_100)
        await withDependencies(ClockworkCore()) {
            await withTaskGroup(of: Bool.self) { group in
                for hour in 0..<1_100 {
                    group.addTask {
                        await clockworkInjector.withOverrides(.override({ $0.resolveHour() }, with: hour)) {
                            await gate.arriveAndWait()
                            return clockworkInjector.dependencies.resolveHour() == hour
                        }
                    }
                }
                var exact = 0
                for await ok in group where ok { exact += 1 }
                #expect(exact == 1_100)
            }
        }
    }

    @Test func theCountedFieldsOfTheDiagnosticsWordDoNotOverlap() {
        let fields = DiagnosticsWord.Field.allCases
        for (index, field) in fields.enumerated() {
            #expect(field.limit >= 4_095)
            let bits = field.limit << field.shift
            #expect(bits & DiagnosticsWord.toggledBit == 0)
            for other in fields[(index + 1)...] { #expect(bits & (other.limit << other.shift) == 0) }
        }
        #expect(DiagnosticsWord.overrideSetBits == DiagnosticsWord.Field.overrideSet.limit << 21 || Int.bitWidth == 32)
    }

    // MARK: 3. Arguments count

    @Test func anOverrideOfAResolveWithArgumentsIsRefusedAndReported() {
        let problems = ReportedProblems()
        let container = ClockworkCore()
        let users = problems.collecting {
            withDependencies(container, .override({ $0.resolveUser(id: 1) }, with: "fake")) {
                [1, 2, 99].map { clockworkInjector.dependencies.resolveUser(id: $0) }
            }
        }
        #expect(users == ["user 1", "user 2", "user 99"])
        #expect(problems.aboutOverrides.count == 1, "\(problems.all)")
        #expect(
            problems.aboutOverrides.first?.contains("resolveUser(id:) of ClockworkCore, which takes arguments") == true)
    }

    // MARK: 4. A selector calls exactly one resolve

    @Test func aSelectorThatCallsTwoResolvesIsReportedWithoutRunningEither() {
        let problems = ReportedProblems()
        let container = ClockworkCore()
        let hour = problems.collecting {
            withDependencies(
                container,
                .override(
                    {
                        _ = $0.resolveCounter()
                        return $0.resolveHour()
                    }, with: 5)
            ) {
                clockworkInjector.dependencies.resolveHour()
            }
        }
        #expect(hour == 9)  // the malformed override is left out
        #expect(problems.aboutOverrides.count == 1, "\(problems.all)")
        #expect(problems.aboutOverrides.first?.contains("calls 2 resolves: resolveCounter() of ClockworkCore") == true)
        // The fix names the resolve the closure returns, and compiles when pasted (`…` filled in).
        #expect(problems.aboutOverrides.first?.contains("`.override({ $0.resolveHour() }, with: …)`") == true)
        #expect(container.production.notes == ["hour"])  // only the test's own resolve ran production code
        let fixed = withDependencies(ClockworkCore(), .override({ $0.resolveHour() }, with: 5)) {
            clockworkInjector.dependencies.resolveHour()
        }
        #expect(fixed == 5)
    }

    @Test func aRelativeOverrideRunsNothingWhenItsScopeBegins() {
        let container = ClockworkCore()
        withDependencies(container, .override({ $0.resolveHour() }) { $0 + 1 }) {
            #expect(container.production.notes.isEmpty)
            #expect(clockworkInjector.dependencies.resolveHour() == 10)
        }
        #expect(container.production.notes == ["hour"])
    }

    @Test func aRelativeOverrideOfAnotherResolveOfTheSameTypeLeavesThisOneAlone() {
        let container = ClockworkCore()
        withDependencies(container, .override({ $0.resolveCounter() }) { $0 + 100 }) {
            #expect(clockworkInjector.dependencies.resolveHour() == 9)
            #expect(clockworkInjector.dependencies.resolveCounter() == 100)
            #expect(clockworkInjector.dependencies.resolveHour() == 9)
        }
    }

    @Test func insideItsTransformTheOverriddenResolveServesItsBase() {
        let problems = ReportedProblems()
        let hour = problems.collecting {
            withDependencies(
                ClockworkCore(),
                .override({ $0.resolveHour() }) { _ in clockworkInjector.dependencies.resolveHour() + 1 }
            ) {
                clockworkInjector.dependencies.resolveHour()
            }
        }
        #expect(hour == 10)
        #expect(problems.aboutOverrides.isEmpty, "\(problems.all)")
    }

    // MARK: 5. withOverrides pins its container

    @Test func aGlobalInstallDuringWithOverridesCannotStripIt() {
        let previous = clockworkInjector.dependencies
        defer { clockworkInjector.dependencies = previous }
        let stop = AtomicWord(0)
        let finished = DispatchSemaphore(value: 0)
        let installer = Thread {
            var installs = 0
            while stop.loadAcquire() == 0, installs < 2_000 {
                clockworkInjector.dependencies = ClockworkCore()
                installs += 1
            }
            finished.signal()
        }
        installer.start()
        let wrong = clockworkInjector.withOverrides(.override({ $0.resolveHour() }, with: 23)) {
            (0..<10_000).filter { _ in clockworkInjector.dependencies.resolveHour() != 23 }.count
        }
        stop.storeRelease(1)
        // The installer has ended before `previous` is put back, so it cannot install over it.
        finished.wait()
        #expect(wrong == 0)
    }

    // MARK: 6. Lookup cost does not grow with the overrides alive

    @Test func tenThousandOverridesInOneScopeAnswerExactly() {
        let overrides = (0..<10_000).map { hour in
            DependencyContainer.Override<any ClockworkDependency>.override({ $0.resolveHour() }, with: hour)
        }
        let container: any ClockworkDependency = ClockworkCore()
        let set = OverrideSet.recording(overrides, for: container).set
        #expect((set as? OverrideSet)?.entries.withLock { $0.named.values.first?.count } == 10_000)
        let hour = Interception.updating({ $0.overrides = set }, operation: { container.resolveHour() })
        #expect(hour == 9_999)
    }

    // MARK: 7. @Inject across tests

    @Test func anInjectHolderThatOutlivesItsContainerResolvesAgainFromTheNextOne() {
        struct Holder {
            @Inject(clockworkInjector, { $0.resolveHour() }) var hour
        }
        let holder = Holder()
        let first = withDependencies(ClockworkCore(), .override({ $0.resolveHour() }, with: 1)) { holder.hour }
        let second = withDependencies(ClockworkCore(), .override({ $0.resolveHour() }, with: 2)) { holder.hour }
        let third = withDependencies(ClockworkCore()) {
            let outside = holder.hour
            let inside = clockworkInjector.withOverrides(.override({ $0.resolveHour() }, with: 3)) { holder.hour }
            return (outside, inside, holder.hour)
        }
        #expect(first == 1)
        #expect(second == 2)
        #expect(third.0 == 9 && third.1 == 3 && third.2 == 9)
    }
}

/// Lets `expected` tasks wait until all of them have arrived.
actor AsyncGate {
    private let expected: Int
    private var arrived = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(expected: Int) { self.expected = expected }

    func arriveAndWait() async {
        arrived += 1
        if arrived == expected {
            for continuation in waiting { continuation.resume() }
            waiting = []
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}

@Suite struct UnusedOverrideTests {
    @Test func anOverrideNothingResolvedIsReported() async {
        let reported = Locked<[String]>([])
        let hour = await withDependencies(
            ClockworkCore(),
            overriding: [.override({ $0.resolveHour() }, with: 23), .override({ $0.resolveZone() }, with: "CET")],
            reportingUnused: { message in reported.withLock { $0.append(message) } },
            operation: { () async -> Int in clockworkInjector.dependencies.resolveHour() }
        )
        #expect(hour == 23)
        let messages = reported.withLock { $0 }
        #expect(messages.count == 1)
        #expect(messages.first?.contains("overrides resolveZone() of ClockworkCore, but nothing resolved it") == true)
    }

    @Test func overridesShadowedByALaterOneAreOneMessageNotOnePerOverride() async {
        for count in [2, 10_000] {
            let reported = Locked<[String]>([])
            let overrides = (0..<count).map { hour in
                DependencyContainer.Override<any ClockworkDependency>.override({ $0.resolveHour() }, with: hour)
            }
            let hour = await withDependencies(
                ClockworkCore(), overriding: overrides.map(DependencyContainer.Override<ClockworkCore>.init),
                reportingUnused: { message in reported.withLock { $0.append(message) } },
                operation: { () async -> Int in clockworkInjector.dependencies.resolveHour() }
            )
            #expect(hour == count - 1)
            let messages = reported.withLock { $0 }
            #expect(messages.count == 1)
            #expect(messages.first?.contains("overrides resolveHour() of ClockworkCore \(count) times") == true)
            #expect(messages.first?.contains("nothing resolved it") == false)
        }
    }

    @Test func anOverrideATaskOfTheTestUsesAfterTheBodyReturnsIsNotReported() async {
        let reported = Locked<[String]>([])
        let seen = Locked<[Int]>([])
        for _ in 0..<5 {
            await withDependencies(
                ClockworkCore(), overriding: [.override({ $0.resolveHour() }, with: 23)],
                reportingUnused: { message in reported.withLock { $0.append(message) } },
                operation: { () async in
                    _ = Task {
                        try? await Task.sleep(nanoseconds: 200_000_000)
                        let hour = clockworkInjector.dependencies.resolveHour()
                        seen.withLock { $0.append(hour) }
                    }
                }
            )
        }
        #expect(seen.withLock { $0 } == [23, 23, 23, 23, 23])
        #expect(reported.withLock { $0 }.isEmpty)
    }

    /// Issue 46, item 3: the check learns that the test's tasks are done from the tasks themselves (the
    /// last one holding the scope lets it go), not by polling. The bound is a minute here: a check that
    /// waited for it would say the task leaked, and fail below.
    @Test func theUnusedCheckReportsAsSoonAsTheTasksHoldingTheScopeEnd() async {
        let reported = Locked<[String]>([])
        let (reports, sink) = AsyncStream<Void>.makeStream()
        let release = Locked<CheckedContinuation<Void, Never>?>(nil)
        let holderStarted = Locked<CheckedContinuation<Void, Never>?>(nil)
        await withCheckedContinuation { (started: CheckedContinuation<Void, Never>) in
            holderStarted.withLock { $0 = started }
            Task {
                await withDependencies(
                    ClockworkCore(), overriding: [.override({ $0.resolveZone() }, with: "CET")],
                    reportingUnused: { message in
                        reported.withLock { $0.append(message) }
                        sink.yield()
                    },
                    waitingAtMost: 60_000_000_000,
                    operation: { () async in
                        // A task of the test that holds the scope after the body returns, until told to end.
                        Task {
                            await withCheckedContinuation { continuation in
                                release.withLock { $0 = continuation }
                                holderStarted.withLock { $0 }?.resume()
                            }
                        }
                    })
            }
        }
        #expect(reported.withLock { $0 }.isEmpty, "reported while a task still held the scope")
        release.withLock { $0 }?.resume()
        // The report comes when the holder ends (the bound above is a minute, and the note below says
        // whether it was reached).
        for await _ in reports { break }
        let messages = reported.withLock { $0 }
        #expect(messages.count == 1)
        #expect(messages.first?.contains("overrides resolveZone() of ClockworkCore, but nothing resolved it") == true)
        #expect(messages.first?.contains("still held its scope") == false)
    }

    /// A task that never lets the scope go has leaked: the check reports at the bound, and says so.
    @Test func aTaskThatLeaksTheScopeIsNotWaitedForPastTheBound() async {
        let reported = Locked<[String]>([])
        let release = Locked<CheckedContinuation<Void, Never>?>(nil)
        let holding = AsyncStream<Void>.makeStream()
        await withDependencies(
            ClockworkCore(), overriding: [.override({ $0.resolveZone() }, with: "CET")],
            reportingUnused: { message in reported.withLock { $0.append(message) } },
            waitingAtMost: 0,
            operation: { () async in
                Task {
                    await withCheckedContinuation { continuation in
                        release.withLock { $0 = continuation }
                        holding.continuation.yield()
                    }
                }
                for await _ in holding.stream { break }
            })
        release.withLock { $0 }?.resume()
        let messages = reported.withLock { $0 }
        #expect(messages.count == 1)
        #expect(messages.first?.contains("but nothing resolved it") == true)
        #expect(
            messages.first?.contains(
                "A task the test started still held its scope 0 ms after the test returned, and was not waited for")
                == true)
    }

    @Test func aRelativeOverrideNeverUsedIsReported() async {
        let reported = Locked<[String]>([])
        await withDependencies(
            ClockworkCore(),
            overriding: [.override({ $0.resolveZone() }) { $0 + "!" }],
            reportingUnused: { message in reported.withLock { $0.append(message) } },
            operation: { () async in _ = clockworkInjector.dependencies.resolveHour() }
        )
        #expect(reported.withLock { $0 }.first?.contains("relative override of a String") == true)
    }
}

// A server's app container and the container a request makes of its own, which re-implements the
// request's user instead of forwarding it: a test's override of the app's resolve never reaches it.
class RequestNotesApp: DependencyContainer, @unchecked Sendable {
    func resolveUser() -> String { fresh { "anonymous" } }
    func resolveGreeting() -> String { fresh { "Hello, " + resolveUser() } }
}

final class RequestNotesRequest: RequestNotesApp, @unchecked Sendable {
    let user: String
    init(user: String) { self.user = user }
    override func resolveUser() -> String { fresh { user } }
}

let requestNotesInjector = Injector<RequestNotesApp> { RequestNotesApp() }

@Suite struct UnusedOverrideOnAnotherContainerTests {
    /// What the middleware does with a request's own container, under a test's override of the app's resolve.
    private func greetings(_ count: Int, reported: Locked<[String]>) async -> [String] {
        await withDependencies(
            RequestNotesApp(), overriding: [.override({ $0.resolveUser() }, with: "ada")],
            reportingUnused: { message in reported.withLock { $0.append(message) } },
            operation: { () async -> [String] in
                await withTaskGroup(of: String.self) { group in
                    for index in 0..<count {
                        group.addTask {
                            await withDependencies(RequestNotesRequest(user: "user \(index)")) { () async -> String in
                                requestNotesInjector.dependencies.resolveGreeting()
                            }
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
            }
        )
    }

    @Test func theUnusedMessageNamesTheRequestContainerTheCodeResolvedOn() async {
        let reported = Locked<[String]>([])
        let greetings = await greetings(200, reported: reported)
        // Each request got its own user: the override did not reach them, and nothing crossed.
        #expect(Set(greetings) == Set((0..<200).map { "Hello, user \($0)" }))
        let messages = reported.withLock { $0 }
        #expect(messages.count == 1)
        #expect(
            messages.first?.contains("overrides resolveUser() of RequestNotesApp, but nothing resolved it there")
                == true)
        #expect(messages.first?.contains("resolved resolveUser() on a RequestNotesRequest") == true)
        #expect(messages.first?.contains("the test no longer exercises") == false)
    }

    @Test func anotherContainerOfTheSameClassIsNamedAsAnother() async {
        let reported = Locked<[String]>([])
        let greeting = await withDependencies(
            RequestNotesApp(), overriding: [.override({ $0.resolveUser() }, with: "ada")],
            reportingUnused: { message in reported.withLock { $0.append(message) } },
            operation: { () async -> String in RequestNotesApp().resolveGreeting() }
        )
        #expect(greeting == "Hello, anonymous")
        let messages = reported.withLock { $0 }
        #expect(messages.count == 1)
        #expect(messages.first?.contains("on another RequestNotesApp than the one it was made for") == true)
    }
}

// A value override's closure is run to find its resolve once per call site and container class when it
// captures nothing; one that captures is run in every scope, since its context decides what it selects.
class TwoNamesCore: DependencyContainer, @unchecked Sendable {
    func resolveFirst() -> String { fresh { "first" } }
    func resolveSecond() -> String { fresh { "second" } }
}

final class TwoNamesSubclass: TwoNamesCore, @unchecked Sendable {
    override func resolveSecond() -> String { fresh { "second, subclassed" } }
}

@Suite struct RecordedSelectionTests {
    private func resolved(_ core: TwoNamesCore, _ override: DependencyContainer.Override<TwoNamesCore>) -> [String] {
        withDependencies(core, override) { [core.resolveFirst(), core.resolveSecond()] }
    }

    @Test func aClosureThatCapturesWhatItSelectsFindsItsResolveInEveryScope() {
        for round in 0..<50 {
            let first = round.isMultiple(of: 2)
            let override = DependencyContainer.Override<TwoNamesCore>.override(
                { first ? $0.resolveFirst() : $0.resolveSecond() }, with: "round \(round)")
            let expected = first ? ["round \(round)", "second"] : ["first", "round \(round)"]
            #expect(resolved(TwoNamesCore(), override) == expected)
        }
    }

    @Test func aSlotHoldingAnotherKeysSelectionAnswersOnlyItsOwnKey() {
        // One entry point on two container classes shares a slot: the first remembered is published there,
        // the second is found in the table, and neither answers for the other.
        let entryPoint = UInt.random(in: 1 << 40..<1 << 41) << 4
        func key(_ container: TwoNamesCore.Type) -> RecordedSelections.Key {
            .init(entryPoint: entryPoint, container: ObjectIdentifier(container), value: ObjectIdentifier(String.self))
        }
        #expect(RecordedSelections.selection(for: key(TwoNamesCore.self)) == nil)
        RecordedSelections.remember("resolveFirst()", for: key(TwoNamesCore.self))
        #expect(RecordedSelections.selection(for: key(TwoNamesSubclass.self)) == nil)
        RecordedSelections.remember("resolveSecond()", for: key(TwoNamesSubclass.self))
        #expect(RecordedSelections.selection(for: key(TwoNamesCore.self)) == "resolveFirst()")
        #expect(RecordedSelections.selection(for: key(TwoNamesSubclass.self)) == "resolveSecond()")
    }

    @Test func oneCallSiteAnswersEachScopeItsOwnValueOnEveryContainerClass() async {
        func requestOverride(_ id: Int) -> DependencyContainer.Override<TwoNamesCore> {
            .override({ $0.resolveSecond() }, with: "request \(id)")
        }
        let crossed = await withTaskGroup(of: Int.self) { group in
            for id in 0..<1_000 {
                group.addTask {
                    let core = id.isMultiple(of: 3) ? TwoNamesSubclass() : TwoNamesCore()
                    return resolved(core, requestOverride(id)) == ["first", "request \(id)"] ? 0 : 1
                }
            }
            return await group.reduce(0, +)
        }
        #expect(crossed == 0)
    }
}
