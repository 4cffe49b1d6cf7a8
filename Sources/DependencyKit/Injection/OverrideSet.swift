/// One override scope: the overrides in effect for the current task, and the cached instances the
/// scope owns. What `DependencyContainer.Override` installs.
///
/// A set lives in a task-local, so child tasks and `Task {}` see their parent's overrides and tests
/// running in parallel never see each other's. Each entry belongs to one container (by identity, kept
/// alive by the entry) and one resolve (its name and requested type), so an override made for a
/// test's container never answers another container's resolutions. While a set exists it counts
/// itself in the diagnostics word, which sends every resolution down the diagnosed path, where
/// ``answer(_:of:container:next:)`` looks it up first.
///
/// ## The rule (Writing Tests → "What an override promises")
///
/// An override scope owns every cached instance (`shared`, `weakShared`, `scoped`, `perGraph`, sync and
/// async) resolved inside it: built there on first use, from any container, and released with the
/// scope; a container's own instances are never read or written inside. Nothing is inferred from what
/// a build resolves, so a builder that resolves lazily, on a branch or in a task is served exactly.
/// ``instances(for:)`` is the one place the cached lifetimes ask.
///
/// ## Lookup
///
/// - **A value override is found when its scope begins**, without production code: its selector runs
///   in a recording that answers the one resolution it makes with the value.
/// - **A relative override is found on first use of its type**: the first resolution of its container
///   and requested type runs its selector, whose one resolution is answered with what that resolve
///   serves without the override (its base), before anything else is served; nothing runs when the
///   scope begins.
/// - **Cost does not grow with the overrides alive**: entries are indexed by resolve, in declaration
///   order; a lookup is a dictionary probe and a binary search for the view's ceiling. A relative
///   override's base and transform run in a view of the set in which that entry and the later ones for
///   the same resolve are not in effect; views are made once per entry, so nested relative overrides
///   cost linear in their depth.
final class OverrideSet: ResolutionInterceptor {
    /// The overrides in effect for the current task: its scope's, else the process-wide ones a serial
    /// XCTest installed with its container (`useDependencies(_:_:…)`).
    static var current: OverrideSet? { Interception.overrides as? OverrideSet }

    /// Installs `set` as the process-wide overrides and returns the ones it replaces.
    package static func installProcessWide(_ set: OverrideSet?) -> OverrideSet? {
        Interception.processWide.withLock { installed in
            defer { installed.overrides = set }
            return installed.overrides as? OverrideSet
        }
    }

    /// Which resolves an entry can answer: one container's resolutions of one requested type.
    struct Bucket: Hashable, Sendable {
        let container: ObjectIdentifier
        let type: ObjectIdentifier
    }

    /// One resolve of one container.
    struct Key: Hashable, Sendable {
        let bucket: Bucket
        let name: String
    }

    /// One override: which resolution of which container it answers, and how.
    final class Entry: Sendable {
        /// Later entries win; a relative entry builds on the ones before it.
        let sequence: Int
        /// Kept alive by the entry, so its identity is never reused while the entry exists.
        let container: any AnyObject & Sendable
        let answer: any OverrideAnswer
        /// Calls the resolve a relative override selects (its closure), to find it on first use.
        let selector: (@Sendable () -> Void)?
        /// How messages name the override.
        let description: String
        private let identity: Locked<Identity>
        /// Set once the entry has answered a resolution.
        private let answeredWord = AtomicWord(0)

        enum Identity: Sendable, Equatable {
            case pending
            case resolve(String)
            /// Malformed; reported, and never answers.
            case refused
        }

        init(
            container: any AnyObject & Sendable,
            answer: any OverrideAnswer,
            identity: Identity,
            description: String,
            selector: (@Sendable () -> Void)? = nil
        ) {
            sequence = OverrideSet.nextSequence.add(1)
            self.container = container
            self.answer = answer
            self.identity = Locked(identity)
            self.description = description
            self.selector = selector
        }

        var currentIdentity: Identity { identity.withLock { $0 } }

        func settle(_ found: Identity) { identity.withLock { $0 = found } }

        /// Whether the entry has answered a resolution.
        var hasAnswered: Bool { answeredWord.loadAcquire() != 0 }

        func noteAnswered() { answeredWord.storeRelease(1) }

        /// What to tell a test whose override nothing resolved; `nil` for a malformed one (already reported).
        var unusedMessage: String? {
            let container = Swift.type(of: self.container)
            switch currentIdentity {
            case .refused:
                return nil
            case .resolve(let name):
                return """
                    This test overrides \(name) of \(container), but nothing resolved it: the test no longer \
                    exercises what it fakes. Remove the override, or reach the code under test through the \
                    container (`dependencies.\(name)`, or a value resolved from it) instead of building it by hand.
                    """
            case .pending:
                return """
                    This test has a relative override of a \(answer.valueType) for \(container), but nothing \
                    resolved a \(answer.valueType) of that container: the test no longer exercises what it \
                    fakes. Remove the override, or reach the code under test through the container.
                    """
            }
        }
    }

    /// The entries of one scope, indexed; shared by the scope and every view made of it.
    final class Entries: Sendable {
        struct Index {
            /// Identified entries by resolve, in ascending sequence.
            var named: [Key: [Entry]] = [:]
            /// Relative entries not yet identified, by bucket, in ascending sequence.
            var pending: [Bucket: [Entry]] = [:]
        }

        let index: Locked<Index>

        init(_ index: Index) { self.index = Locked(index) }

        /// Moves `entry`, now identified as `key`'s, from the pending entries to the named ones.
        func file(_ entry: Entry, under key: Key) {
            index.withLock { index in
                index.pending[key.bucket]?.removeAll { $0 === entry }
                if index.pending[key.bucket]?.isEmpty == true { index.pending[key.bucket] = nil }
                var list = index.named[key] ?? []
                guard !list.contains(where: { $0 === entry }) else { return }
                let position = list.firstIndex { $0.sequence > entry.sequence } ?? list.endIndex
                list.insert(entry, at: position)
                index.named[key] = list
            }
        }

        /// Takes `entry` out for good: a malformed override.
        func drop(_ entry: Entry) {
            index.withLock { index in
                for key in index.named.keys { index.named[key]?.removeAll { $0 === entry } }
                for bucket in index.pending.keys { index.pending[bucket]?.removeAll { $0 === entry } }
            }
        }
    }

    private static let nextSequence = AtomicWord(0)

    let entries: Entries
    /// Per resolve, the sequence at and above which entries are not in effect in this view.
    let ceilings: [Key: Int]
    /// Set in the views a relative override's first use computes its base in (see
    /// ``identifyPending(in:answering:)``); `nil` in a scope and its views.
    let probe: Probe?

    /// What a first use learns about the base it computed: whether another relative override still
    /// waited for its first use there, so the base may lack it and is computed again when served.
    final class Probe: Sendable {
        private let word = AtomicWord(0)
        var skippedPending: Bool { word.loadAcquire() != 0 }
        func noteSkippedPending() { word.storeRelease(1) }
    }
    /// The views of this set made so far, by resolve and ceiling: each made once.
    private let views = Locked<[Key: [Int: OverrideSet]]>([:])
    /// The cached instances this scope owns, per container (see ``instances(for:)``).
    private let instanceTables = Locked<[ObjectIdentifier: OwnedInstances]>([:])

    private init(entries: Entries, ceilings: [Key: Int], probe: Probe? = nil) {
        self.entries = entries
        self.ceilings = ceilings
        self.probe = probe
        DiagnosticsWord.count(in: .overrideSet)
    }

    deinit {
        DiagnosticsWord.add(-DiagnosticsWord.overrideUnit)
    }

    /// This set with `key` answered only by entries declared before `sequence`: made once, so the
    /// instances built in it are kept like the scope's own.
    func view(below sequence: Int, for key: Key) -> OverrideSet {
        views.withLock { views in
            if let made = views[key]?[sequence] { return made }
            var ceilings = self.ceilings
            ceilings[key] = min(sequence, ceilings[key] ?? .max)
            let made = OverrideSet(entries: entries, ceilings: ceilings, probe: probe)
            views[key, default: [:]][sequence] = made
            return made
        }
    }

    /// A view like ``view(below:for:)`` for a relative override's first use: made anew, with its own
    /// probe, so nothing it builds is kept.
    func probeView(below sequence: Int, for key: Key) -> OverrideSet {
        var ceilings = self.ceilings
        ceilings[key] = min(sequence, ceilings[key] ?? .max)
        return OverrideSet(entries: entries, ceilings: ceilings, probe: Probe())
    }

    /// The cached instances this scope owns for `container`, made on first use: the one place the
    /// cached lifetimes learn where an instance lives (the rule in the type's discussion).
    func instances(for container: DependencyContainer) -> OwnedInstances? {
        instanceTables.withLock { tables in
            let id = ObjectIdentifier(container)
            if let made = tables[id] { return made }
            let made = OwnedInstances(container: container)
            tables[id] = made
            return made
        }
    }

    /// Records `overrides` against `container` on top of the overrides already in effect.
    ///
    /// A value override's selector runs now; a relative override waits for its first use. A
    /// malformed override is reported (a test issue inside a guarded test) and left out.
    static func adding<Container>(_ overrides: [DependencyContainer.Override<Container>], for container: Container)
        -> OverrideSet?
    {
        recording(overrides, for: container).set
    }

    /// ``adding(_:for:)``, with the entries the overrides made (the malformed ones left out).
    static func recording<Container>(_ overrides: [DependencyContainer.Override<Container>], for container: Container)
        -> (set: OverrideSet?, entries: [Entry])
    {
        let outer = current
        guard !overrides.isEmpty else { return (outer, []) }
        var index = outer?.entries.index.withLock { $0 } ?? Entries.Index()
        var recorded: [Entry] = []
        for override in overrides {
            guard let (entry, type, name) = override.record(container) else { continue }
            let bucket = Bucket(container: ObjectIdentifier(entry.container), type: type)
            if let name {
                index.named[Key(bucket: bucket, name: name), default: []].append(entry)
            } else {
                index.pending[bucket, default: []].append(entry)
            }
            recorded.append(entry)
        }
        // An outer view's ceilings stay: code inside a relative override's transform keeps its view.
        return (OverrideSet(entries: Entries(index), ceilings: outer?.ceilings ?? [:]), recorded)
    }

    /// Runs `operation` with `set` in effect. A scope begun inside a synchronous resolve diverts the
    /// rest of that graph down the diagnosed path, where overrides and owned instances are looked up.
    static func bind<R>(_ set: OverrideSet?, operation: () throws -> R) rethrows -> R {
        let diverted = divertNestedResolutions()
        defer { endDivertingNestedResolutions(diverted) }
        return try Interception.updating({ $0.overrides = set }, operation: operation)
    }

    /// The asynchronous form of ``bind(_:operation:)``.
    static func bind<R>(
        _ set: OverrideSet?,
        isolation: isolated (any Actor)?,
        operation: () async throws -> R
    ) async rethrows -> R {
        try await Interception.updating({ $0.overrides = set }, isolation: isolation, operation: operation)
    }

    // MARK: - Answering

    /// Answers a resolution from the overrides in this scope, or returns `nil` to let the resolution run
    /// as written.
    ///
    /// - Parameters:
    ///   - next: Serves the resolution as it would be served without the answering override: the
    ///     value a relative override transforms.
    func answer<T, Failure: Error>(
        _ name: String,
        of _: T.Type,
        container: AnyObject,
        next: () throws(Failure) -> T
    ) throws(Failure) -> T? {
        let key = Key(
            bucket: Bucket(container: ObjectIdentifier(container), type: ObjectIdentifier(T.self)), name: name)
        let found = identifyPending(in: key.bucket, answering: key)
        guard let entry = entry(for: key) else { return nil }
        entry.noteAnswered()
        let below = view(below: entry.sequence, for: key)
        let value: T?
        if entry.answer.isRelative {
            let base: T
            if let found, found.entry === entry, let reused = found.base.value as? T {
                base = reused
            } else {
                base = try Interception.outcome(overrides: below, next).get()
            }
            value = Interception.updating({ $0.overrides = below }, operation: { entry.answer.transform(base) })
        } else {
            value = entry.answer.value(as: T.self)
        }
        guard let value else {
            refuse(entry, problem: Self.mismatch(entry.answer, name: name, of: T.self, container: container))
            return nil
        }
        return value
    }

    /// The asynchronous form of ``answer(_:of:container:next:)``. An override selects a synchronous
    /// resolve, so only a value override can answer here; relative overrides are found by the
    /// synchronous resolutions nested in this one.
    func answer<T, Failure: Error>(
        _ name: String,
        of _: T.Type,
        container: AnyObject,
        isolation: isolated (any Actor)?,
        next: () async throws(Failure) -> T
    ) async throws(Failure) -> T? {
        let key = Key(
            bucket: Bucket(container: ObjectIdentifier(container), type: ObjectIdentifier(T.self)), name: name)
        guard let entry = entry(for: key) else { return nil }
        entry.noteAnswered()
        let value: T?
        if entry.answer.isRelative {
            let below = view(below: entry.sequence, for: key)
            let base = try await Interception.outcome(overrides: below, isolation: isolation, next).get()
            value = Interception.updating({ $0.overrides = below }, operation: { entry.answer.transform(base) })
        } else {
            value = entry.answer.value(as: T.self)
        }
        guard let value else {
            refuse(entry, problem: Self.mismatch(entry.answer, name: name, of: T.self, container: container))
            return nil
        }
        return value
    }

    /// The entry that answers `key` in this view: the latest identified one below the view's ceiling.
    private func entry(for key: Key) -> Entry? {
        let ceiling = ceilings[key]
        return entries.index.withLock { index -> Entry? in
            guard let list = index.named[key] else { return nil }
            var position = Self.count(of: list, below: ceiling)
            while position > 0 {
                position -= 1
                if list[position].currentIdentity != .refused { return list[position] }
            }
            return nil
        }
    }

    /// Identifies the relative entries of `bucket` that wait for their first use, oldest first, and
    /// returns the one identified as `key`'s with the base its selector was answered with, when that base
    /// is the one the resolution being served needs.
    ///
    /// Each selector's one resolution is answered with its base, computed in a probe view; resolutions
    /// inside a probe view identify nothing (so first uses never nest), and one that meets a relative
    /// override still waiting marks the probe, whose base is then not reused.
    private func identifyPending(in bucket: Bucket, answering key: Key) -> (entry: Entry, base: Placeholder)? {
        guard let waiting = entries.index.withLock({ $0.pending[bucket] }) else { return nil }
        if let probe {
            probe.noteSkippedPending()
            return nil
        }
        var found: (entry: Entry, base: Placeholder)?
        for entry in waiting {
            switch entry.currentIdentity {
            case .resolve(let name):
                // Identified in another scope that shares the entry: file it here too.
                entries.file(entry, under: Key(bucket: bucket, name: name))
                continue
            case .refused:
                entries.drop(entry)
                continue
            case .pending:
                break
            }
            guard let selector = entry.selector else {
                refuse(entry, problem: nil)
                continue
            }
            let selected = OverrideRecording.select(
                entry.answer.valueType, mode: .base(of: entry, in: self), describedAs: entry.description,
                selector: selector)
            guard let selected else {
                refuse(entry, problem: nil)
                continue
            }
            if selected.key == key, selected.isExact { found = (entry, selected.base) }
        }
        return found
    }

    /// Takes a malformed entry out, reporting `problem` when there is one to report.
    private func refuse(_ entry: Entry, problem: String?) {
        entry.settle(.refused)
        entries.drop(entry)
        if let problem { OverrideProblem.report(problem) }
    }

    /// How many of `entries` (in ascending sequence) are below `ceiling`.
    private static func count(of entries: [Entry], below ceiling: Int?) -> Int {
        guard let ceiling else { return entries.count }
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].sequence < ceiling { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The message for an override whose value is not of the type the resolve builds.
    static func mismatch<T>(_ answer: any OverrideAnswer, name: String, of _: T.Type, container: AnyObject) -> String {
        """
        An override of \(answer.valueType) selected \(name) of \(Swift.type(of: container)), which builds a \(T.self), \
        and the override's value is not one. The closure passed to `.override(_:…)` must call the resolve \
        to override and nothing else. If it does, the resolve's body builds a \(T.self) instead of the type \
        the resolve returns: a body that is a single `return` statement, such as \
        `fresh { return SystemClock() }`, builds its expression's type. In \(name), drop the `return` \
        (`fresh { SystemClock() }` in `func resolveClock() -> any Clock` builds an `any Clock`), or \
        convert the value (`fresh { return SystemClock() as any Clock }`). A builder given a function \
        instead of a closure (`fresh(SystemClock.init)`) builds that function's type too: wrap it in braces.
        """
    }
}

/// A value carried through a recording: the value override's value, or the base a relative override's
/// selector was answered with.
///
/// `@unchecked Sendable` is sound here: the value is only read in the task that made it, while that task
/// waits for the selector it runs synchronously; nothing keeps it afterwards.
struct Placeholder: @unchecked Sendable {
    let value: Any
}

/// Where a malformed override is reported: a test issue in the guarded test that declared it (the
/// rest of the run goes on), else a stop with the message, since no test is there to fail.
enum OverrideProblem {
    static func report(_ message: String) {
        guard Interception.test?.record("override: " + message, { message }) == true else { fatalError(message) }
    }
}

/// How an override answers: with a value, or with the enclosing value transformed.
///
/// An answer is made for the type the override's closure returns (`any Clock`); the resolve's
/// builder produces the resolve's declared type, and answers convert with a dynamic cast, off the hot
/// path.
protocol OverrideAnswer: Sendable {
    /// The type the override's closure returns.
    var valueType: any Any.Type { get }

    /// Whether the answer transforms the value it replaces.
    var isRelative: Bool { get }

    /// A value override's value as `R`, or `nil` when it is not one.
    func value<R>(as _: R.Type) -> R?

    /// The answer made from `base`, the value without this override, as `R`.
    func transform<R>(_ base: R) -> R?
}

/// Answers with one value, made when the override's scope began.
struct ValueAnswer<T: Sendable>: OverrideAnswer {
    let value: T

    var valueType: any Any.Type { T.self }

    var isRelative: Bool { false }

    func value<R>(as _: R.Type) -> R? { value as? R }

    func transform<R>(_ base: R) -> R? { value as? R }
}

/// Answers with the value the resolution has without this override, transformed.
struct RelativeAnswer<T: Sendable>: OverrideAnswer {
    let transform: @Sendable (T) -> T

    var valueType: any Any.Type { T.self }

    var isRelative: Bool { true }

    func value<R>(as _: R.Type) -> R? { nil }

    func transform<R>(_ base: R) -> R? {
        guard let base = base as? T else { return nil }
        return transform(base) as? R
    }
}

/// Finds which resolve an override's selector (`{ $0.resolveClock() }`) calls, by running it with
/// the diagnosed path switched on.
///
/// Every resolution the selector makes itself (not the ones nested inside them) is recorded. The first,
/// when it is of the override's type, is answered without running the code the override replaces: with
/// the override's value, or, for a relative override, with the resolve's base — what it serves in the
/// set's view below the entry, which is the value the override transforms anyway. A relative entry is
/// filed under its resolve as soon as that resolution is seen, so resolutions nested in its base see it
/// as identified (and, in that view, not in effect). A selector must make exactly one resolution, of a
/// container's resolve without arguments; anything else is reported naming what it called, and the
/// override is left out.
final class OverrideRecording: ResolutionInterceptor {
    /// What the selector's resolution is answered with.
    enum Mode: Sendable {
        /// A value override's value.
        case value(Placeholder)
        /// A relative override's base, computed in the set's view below the entry.
        case base(of: OverrideSet.Entry, in: OverrideSet)
    }

    private let type: any Any.Type
    private let mode: Mode
    /// The override scope in effect around the selector: where a call runs as written.
    private let outer: (any ResolutionInterceptor)?
    private let calls = Locked<[Call]>([])

    private struct Call {
        let name: String
        let requestedType: any Any.Type
        let container: (any DependencyContainer.Resolving)?
        let containerType: any AnyObject.Type
        let answer: Placeholder?
        /// Whether `answer` is the base the resolution would be served without the override.
        var isExact = true
    }

    private init(type: any Any.Type, mode: Mode) {
        self.type = type
        self.mode = mode
        outer = Interception.current.overrides
    }

    /// Runs `selector` and returns the resolve it selected, with its container and what it was answered
    /// with, or `nil` once the problem is reported.
    static func select(
        _ type: any Any.Type,
        mode: Mode,
        describedAs description: String,
        selector: () -> Void
    ) -> (key: OverrideSet.Key, container: any DependencyContainer.Resolving, base: Placeholder, isExact: Bool)? {
        let recording = OverrideRecording(type: type, mode: mode)
        DiagnosticsWord.count(in: .overrideSet)
        let diverted = divertNestedResolutions()
        Interception.updating({ $0.overrides = recording }, operation: selector)
        endDivertingNestedResolutions(diverted)
        DiagnosticsWord.add(-DiagnosticsWord.overrideUnit)
        let calls = recording.calls.withLock { $0 }
        guard let call = calls.first else {
            OverrideProblem.report(
                """
                \(description): the closure resolved nothing that DependencyKit can see. An override \
                selects a resolve by calling it, and a resolve is seen only when its body is wrapped in \
                `fresh {}`, `live {}` or `shared {}` (and is not `async`). Wrap the resolve's body, for \
                example `func resolveClock() -> any Clock { live { SystemClock() } }`, and pass a closure \
                that only calls it: `.override({ $0.resolveClock() }, with: …)`.
                """)
            return nil
        }
        guard calls.count == 1 else {
            let names = calls.map { "\($0.name) of \($0.containerType)" }
            OverrideProblem.report(
                """
                \(description) calls \(calls.count) resolves: \(names.joined(separator: ", ")). An override \
                replaces one resolve, so its closure must call exactly one, and nothing else: \
                `.override({ $0.\(call.name) }, with: …)`. To replace several, write one override each.
                """)
            return nil
        }
        guard !call.name.contains(":") else {
            OverrideProblem.report(
                """
                \(description) selects \(call.name) of \(call.containerType), which takes \
                arguments. DependencyKit never sees a resolve's arguments (its builder captures them), so \
                such an override would answer every argument alike. Override what the resolve builds on \
                instead (the store or client it reads), or answer per argument in a subclass: \
                `override func \(call.name.split(separator: "(").first ?? "")(…) -> … { … }`.
                """)
            return nil
        }
        guard let container = call.container else {
            OverrideProblem.report(
                "\(description) selects \(call.name) of \(call.containerType), which is not a container: overrides "
                    + "answer the resolves of containers (`fresh {}`, `live {}`, `shared {}`).")
            return nil
        }
        if case .base(let entry, _) = mode, container !== entry.container {
            OverrideProblem.report(
                """
                \(description) selects \(call.name) of \(call.containerType), not a resolve of the container \
                it is made for (\(Swift.type(of: entry.container))). Override it where that container is in effect.
                """)
            return nil
        }
        guard let answer = call.answer else {
            OverrideProblem.report(
                """
                An override of \(type) selected \(call.name) of \(call.containerType), which builds a \
                \(call.requestedType), and the override's value is not one. If the closure calls only that resolve, \
                its body builds a \(call.requestedType) instead of the type the resolve returns: a body that is a \
                single `return` statement, such as `fresh { return SystemClock() }`, builds its expression's type: \
                drop the `return`, or convert the value (`fresh { return SystemClock() as any Clock }`).
                """)
            return nil
        }
        let bucket = OverrideSet.Bucket(
            container: ObjectIdentifier(container), type: ObjectIdentifier(call.requestedType))
        return (OverrideSet.Key(bucket: bucket, name: call.name), container, answer, call.isExact)
    }

    /// Records a resolution the selector made itself and answers the first one, when it is of the
    /// override's type, without the code the override replaces; anything else runs as written, with the
    /// recording out of the way.
    func answer<R, Failure: Error>(
        _ name: String,
        of _: R.Type,
        container: AnyObject,
        next: () throws(Failure) -> R
    ) throws(Failure) -> R? {
        let isFirst = calls.withLock { $0.isEmpty }
        var answer: R?
        var isExact = true
        switch mode {
        case .value(let placeholder):
            // Every call the value fits is answered, so a malformed selector runs no production code.
            answer = placeholder.value as? R
        case .base(let entry, let set):
            if isFirst, ObjectIdentifier(R.self) == ObjectIdentifier(type), container === entry.container,
                !name.contains(":")
            {
                let key = OverrideSet.Key(
                    bucket: OverrideSet.Bucket(container: ObjectIdentifier(container), type: ObjectIdentifier(R.self)),
                    name: name)
                entry.settle(.resolve(name))
                set.entries.file(entry, under: key)
                let probe = set.probeView(below: entry.sequence, for: key)
                answer = try Interception.outcome(overrides: probe, next).get()
                isExact = probe.probe?.skippedPending != true
            }
        }
        var call = Call(
            name: name, requestedType: R.self, container: container as? any DependencyContainer.Resolving,
            containerType: Swift.type(of: container), answer: answer.map { Placeholder(value: $0) })
        call.isExact = isExact
        calls.withLock { $0.append(call) }
        if let answer { return answer }
        return try Interception.outcome(overrides: outer, next).get()
    }
}
