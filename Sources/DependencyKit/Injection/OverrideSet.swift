/// One override scope: the overrides in effect for the current task, and the cached instances the
/// scope owns. What `DependencyContainer.Override` installs, in the seam's override slot.
///
/// Child tasks and `Task {}` see their parent's overrides; tests running in parallel never see each
/// other's. Each entry belongs to one container (kept alive by the entry, so its identity is not reused)
/// and one resolve. While a set exists it counts itself in the diagnostics word, which sends every
/// resolution down the diagnosed path, where ``answer(_:of:container:next:)`` is asked first.
///
/// ## The rule (Writing Tests → "What an override promises")
///
/// An override scope owns every cached instance resolved inside it, of every container, sync and async:
/// built there on first use and released with the scope; a container's own instances are never read or
/// written inside. Nothing is inferred from what a build resolves. ``instances(for:)`` is the one place
/// the cached lifetimes ask. The views a relative override's base and transform run in (the scope with
/// that override and the ones after it on the same resolve not in effect) own nothing of their own: they
/// serve the scope's instances, so the base is built once, on what the rest of the scope resolves.
///
/// ## Lookup
///
/// - A value override is found when its scope begins: its closure runs in a recording that answers the
///   one resolution it makes with the value, so no production code runs.
/// - A relative override is found on the first resolution of its container and type, before anything
///   else is served: its closure's one resolution is answered with the resolve's base (what it serves
///   without the override), computed in a probe view. First uses of another type nest there; a type
///   whose overrides are being found further up only marks the probe, and the base is computed again
///   when served. A type with two overrides or more waiting is probed on instances of the probe's own
///   (kept only if the probe built none), so a base that may be inexact never leaves an instance in
///   the scope.
/// - A relative override's answer is kept per base object: while the base is the same instance (a
///   cached lifetime), the transform runs once and every resolution gets its one answer.
/// - Entries are indexed by resolve, in declaration order: a lookup is a dictionary probe and a binary
///   search for the view's ceiling, whatever the number of overrides alive. A relative override's base
///   and transform run in the view below its entry, made once per entry, so nested relative overrides
///   cost linear in their depth.
package final class OverrideSet: ResolutionInterceptor {
    /// The overrides in effect: the task's, else the ones a serial XCTest installed for the process.
    static var current: OverrideSet? { Interception.overrides as? OverrideSet }

    /// One resolve of one container; with an empty name, every resolve of the type (a bucket).
    struct Key: Hashable, Sendable {
        let container: ObjectIdentifier
        let type: ObjectIdentifier
        var name = ""

        var bucket: Key { Key(container: container, type: type) }
    }

    /// One override: which resolve of which container it answers, and how.
    package final class Entry: Sendable {
        enum Answer: Sendable {
            case value(Placeholder)
            /// Transforms the base, type-erased; `nil` when the base is not of the override's type.
            case relative(@Sendable (Any) -> Any?)
        }

        enum Identity: Sendable, Equatable {
            case pending
            case resolve(String)
            case refused
        }

        /// Later entries win; a relative entry builds on the ones before it.
        let sequence = OverrideSet.nextSequence.add(1)
        /// The resolve answered, or (name empty) the bucket a relative entry waits in.
        let key: Key
        let container: any AnyObject & Sendable
        let valueType: any Any.Type
        let answer: Answer
        /// Calls the resolve a relative override selects, to find it on first use.
        let selector: (@Sendable () -> Void)?
        let description: String
        private let state: Locked<(identity: Identity, answered: Bool)>

        init(
            key: Key, container: any AnyObject & Sendable, valueType: any Any.Type, answer: Answer,
            description: String, selector: (@Sendable () -> Void)? = nil
        ) {
            (self.key, self.container, self.valueType, self.answer) = (key, container, valueType, answer)
            (self.description, self.selector) = (description, selector)
            state = Locked((key.name.isEmpty ? .pending : .resolve(key.name), false))
        }

        var identity: Identity { state.withLock { $0.identity } }
        var hasAnswered: Bool { state.withLock { $0.answered } }
        func settle(_ found: Identity) { state.withLock { $0.identity = found } }
        func noteAnswered() { state.withLock { $0.answered = true } }
    }

    /// The entries of one scope, shared by the scope and its views: identified ones by resolve and
    /// relative ones waiting for their first use by bucket, each list in ascending sequence.
    final class Entries: Sendable {
        struct Index {
            var named: [Key: [Entry]] = [:]
            var pending: [Key: [Entry]] = [:]
        }

        let index: Locked<Index>

        init(_ index: Index) { self.index = Locked(index) }

        /// Moves `entry`, now identified as `key`'s, from the waiting entries to the named ones.
        func file(_ entry: Entry, under key: Key) {
            index.withLock { index in
                index.pending[key.bucket]?.removeAll { $0 === entry }
                var list = index.named[key] ?? []
                guard !list.contains(where: { $0 === entry }) else { return }
                list.insert(entry, at: list.firstIndex { $0.sequence > entry.sequence } ?? list.endIndex)
                index.named[key] = list
            }
        }

        /// Takes a malformed entry out for good.
        func drop(_ entry: Entry) {
            index.withLock { index in
                for key in index.named.keys { index.named[key]?.removeAll { $0 === entry } }
                index.pending[entry.key.bucket]?.removeAll { $0 === entry }
            }
        }
    }

    private static let nextSequence = AtomicWord(0)

    let entries: Entries
    /// This set's serial number: what an `@Inject` holder keeps to know its value came from it.
    let serialNumber = SerialNumber.next()
    /// Per resolve, the sequence at and above which entries are not in effect in this view.
    let ceilings: [Key: Int]
    /// Set in the views a relative override's first use computes its base in, one flag per probe on the
    /// chain, innermost last; `true` once a relative override still waiting was met there that could not
    /// be found, so the base may lack it and is computed again when served.
    let probes: [Locked<Bool>]
    /// In a probe, the buckets whose waiting overrides are being found on this chain: a first use of
    /// another bucket nests, one of these only marks the probe.
    let finding: Set<Key>
    /// The views made so far, by resolve and ceiling: each made once.
    private let views = Locked<[Key: [Int: OverrideSet]]>([:])
    /// What the scope owns, shared by the scope and its views: a relative override's base and
    /// transform are built from the scope's own instances.
    private let holdings: Locked<Holdings>

    /// Told when this set is freed: the scope's last holder (the scope itself, a task that inherited it)
    /// let it go. Only a scope's own set has one; views are freed with it.
    private let whenFreed: Release?

    /// The cached instances a scope owns, per container, and its relative overrides' answers.
    struct Holdings: @unchecked Sendable {
        var tables: [ObjectIdentifier: OwnedInstances] = [:]
        /// Per relative entry, its last answer and the base object it was made from.
        var answers: [ObjectIdentifier: Answered] = [:]
    }

    /// A relative override's answer for one base. `@unchecked Sendable` is sound: both are values of
    /// the resolve's `Sendable` type, read and written only under ``holdings``'s lock.
    struct Answered: @unchecked Sendable {
        weak var base: AnyObject?
        /// `nil` when the answer is the base itself, so that a `weakShared {}` base is not kept.
        let answer: Any?
    }

    private init(
        entries: Entries, ceilings: [Key: Int], probes: [Locked<Bool>] = [], finding: Set<Key> = [],
        holdings: Locked<Holdings> = Locked(Holdings()), whenFreed: Release? = nil
    ) {
        (self.entries, self.ceilings, self.probes, self.finding, self.holdings, self.whenFreed) = (
            entries, ceilings, probes, finding, holdings, whenFreed
        )
        DiagnosticsWord.register(.overrideSet)
    }

    deinit {
        DiagnosticsWord.unregister(.overrideSet)
        whenFreed?.signal()
    }

    /// The moment an override scope's set is freed, which a task waits for: how the unused check learns
    /// that the tasks a test started are done with its overrides, without polling.
    package final class Release: Sendable {
        private let state = Locked<(signaled: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

        package init() {}

        func signal() {
            state.withLock { state in
                state.signaled = true
                defer { state.waiter = nil }
                return state.waiter
            }?.resume()
        }

        /// Waits until the set is freed, or at most `nanoseconds`.
        /// - Returns: Whether the set was freed.
        package func wait(atMost nanoseconds: UInt64) async -> Bool {
            await withTaskGroup(of: Bool.self) { group in
                group.addTask { await self.waitForSignal() }
                group.addTask {
                    // A deadline, not a poll: it decides nothing but when to stop waiting for a task that leaked.
                    try? await Task.sleep(nanoseconds: nanoseconds)
                    return false
                }
                let first = await group.next() ?? false
                group.cancelAll()
                return first
            }
        }

        /// Waits for ``signal()``; `false` when the waiting task is cancelled first.
        private func waitForSignal() async -> Bool {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let now = state.withLock { state in
                        if state.signaled || Task.isCancelled { return true }
                        state.waiter = continuation
                        return false
                    }
                    if now { continuation.resume() }
                }
                return state.withLock { $0.signaled }
            } onCancel: {
                state.withLock { state in
                    defer { state.waiter = nil }
                    return state.waiter
                }?.resume()
            }
        }
    }

    /// This set with `key` answered only by entries declared before `sequence`, owning what this set
    /// owns. A probe view is made anew, finding `key`'s bucket; one made separately owns instances of its own.
    func view(below sequence: Int, for key: Key, probing: Bool = false, separately: Bool = false) -> OverrideSet {
        var ceilings = self.ceilings
        ceilings[key] = min(sequence, ceilings[key] ?? .max)
        if probing {
            return OverrideSet(
                entries: entries, ceilings: ceilings, probes: probes + [Locked(false)],
                finding: finding.union([key.bucket]),
                holdings: separately ? Locked(Holdings()) : holdings)
        }
        return views.withLock { views in
            // Found, a view is returned as is: a dictionary write on every answer costs 10 %.
            if let made = views[key]?[sequence] { return made }
            let made = OverrideSet(
                entries: entries, ceilings: ceilings, probes: probes, finding: finding, holdings: holdings)
            views[key, default: [:]][sequence] = made
            return made
        }
    }

    /// Whether a relative override in effect here transforms `name`, a resolve of `type` of the container
    /// with identity `container`: the test guard's question when that resolve's base reaches the outside world.
    package func hasRelativeOverride(of name: String, type: any Any.Type, container: ObjectIdentifier) -> Bool {
        let key = Key(container: container, type: ObjectIdentifier(type), name: name)
        // Every view of the scope counts: the base of a relative override is computed in the view below it.
        let isRelative: (Entry) -> Bool = { entry in
            guard case .relative = entry.answer else { return false }
            return true
        }
        return entries.index.withLock { index in
            (index.named[key] ?? []).contains(where: isRelative)
                || (index.pending[key.bucket] ?? []).contains(where: isRelative)
        }
    }

    /// The cached instances this scope owns for `container`, made on first use (the rule above).
    package func instances(for container: DependencyContainer) -> OwnedInstances? {
        holdings.withLock { holdings in
            if let made = holdings.tables[ObjectIdentifier(container)] { return made }
            let made = OwnedInstances(container: container)
            holdings.tables[ObjectIdentifier(container)] = made
            return made
        }
    }

    /// Whether this view has built no cached instance and made no relative answer.
    var ownsNothing: Bool { holdings.withLock { $0.tables.isEmpty && $0.answers.isEmpty } }

    /// Records `overrides` against `container` on top of the overrides in effect, and returns the set
    /// with the entries the overrides made (a malformed one is reported and left out).
    package static func recording<Container>(
        _ overrides: [DependencyContainer.Override<Container>], for container: Container, whenFreed: Release? = nil
    ) -> (set: OverrideSet?, entries: [Entry]) {
        let outer = current
        guard !overrides.isEmpty else { return (outer, []) }
        var index = outer?.entries.index.withLock { $0 } ?? Entries.Index()
        let recorded = overrides.compactMap { $0.entry(container) }
        for entry in recorded {
            if entry.key.name.isEmpty {
                index.pending[entry.key, default: []].append(entry)
            } else {
                index.named[entry.key, default: []].append(entry)
            }
        }
        // An outer view's ceilings stay: code inside a relative override's transform keeps its view.
        return (OverrideSet(entries: Entries(index), ceilings: outer?.ceilings ?? [:], whenFreed: whenFreed), recorded)
    }

    /// Runs `operation` with `set` in effect.
    static func bind<R>(_ set: OverrideSet?, operation: () throws -> R) rethrows -> R {
        try Interception.updating({ $0.overrides = set }, operation: operation)
    }

    /// The asynchronous form of ``bind(_:operation:)``.
    static func bind<R>(
        _ set: OverrideSet?, isolation: isolated (any Actor)?, operation: () async throws -> R
    ) async rethrows -> R {
        try await Interception.updating({ $0.overrides = set }, isolation: isolation, operation: operation)
    }

    // MARK: - Answering

    /// Answers a resolution from this scope's overrides, or returns `nil` to let it run as written.
    /// - Parameter next: Serves the resolution without the answering override: a relative one's base.
    package func answer<T, Failure: Error>(
        _ name: String, of _: T.Type, container: AnyObject, next: () throws(Failure) -> T
    ) throws(Failure) -> T? {
        let key = Key(container: ObjectIdentifier(container), type: ObjectIdentifier(T.self), name: name)
        let found = identifyPending(answering: key)
        guard let (entry, below) = inEffect(key) else { return nil }
        guard case .relative = entry.answer else { return finish(entry, key, container, base: nil as T?) }
        var base = found?.entry === entry ? found?.base.value as? T : nil
        if base == nil { base = try Interception.outcome(overrides: below, next).get() }
        return finish(entry, key, container, base: base, in: below)
    }

    /// The asynchronous form of ``answer(_:of:container:next:)``. Relative overrides waiting in the
    /// resolution's bucket are found first, as for a synchronous resolution.
    package func answer<T, Failure: Error>(
        _ name: String, of _: T.Type, container: AnyObject, isolation: isolated (any Actor)?,
        next: () async throws(Failure) -> T
    ) async throws(Failure) -> T? {
        let key = Key(container: ObjectIdentifier(container), type: ObjectIdentifier(T.self), name: name)
        let found = identifyPending(answering: key)
        guard let (entry, below) = inEffect(key) else { return nil }
        guard case .relative = entry.answer else { return finish(entry, key, container, base: nil as T?) }
        var base = found?.entry === entry ? found?.base.value as? T : nil
        if base == nil { base = try await Interception.outcome(overrides: below, isolation: isolation, next).get() }
        return finish(entry, key, container, base: base, in: below)
    }

    /// The entry that answers `key` in this view — the latest identified one below the view's ceiling —
    /// noted as answered, with the view below it.
    private func inEffect(_ key: Key) -> (Entry, OverrideSet)? {
        let ceiling = ceilings[key] ?? .max
        let entry = entries.index.withLock { index -> Entry? in
            guard let list = index.named[key] else { return nil }
            // A binary search for the ceiling, then down past refused entries.
            var (low, high) = (0, list.count)
            while low < high {
                let middle = (low + high) / 2
                if list[middle].sequence < ceiling { low = middle + 1 } else { high = middle }
            }
            return list[..<low].last { $0.identity != .refused }
        }
        guard let entry else { return nil }
        entry.noteAnswered()
        return (entry, view(below: entry.sequence, for: key))
    }

    /// The entry's answer — its value, or its transform of `base` run in the view `below` it — or `nil`
    /// with the entry refused and the mismatch reported when the answer is not a `T`.
    private func finish<T>(_ entry: Entry, _ key: Key, _ container: AnyObject, base: T?, in below: OverrideSet? = nil)
        -> T?
    {
        let value: T? =
            switch entry.answer {
            case .value(let value): value.value as? T
            case .relative(let transform):
                base.flatMap { base in
                    answered(entry, base) {
                        Interception.updating({ $0.overrides = below }, operation: { transform(base) }) as? T
                    }
                }
            }
        if value == nil {
            refuse(entry, problem: OverrideMessages.mismatch(entry.valueType, key.name, T.self, container))
        }
        return value
    }

    /// A relative entry's answer for `base`: made by `transform` once per base object and kept by the
    /// scope, so a cached base gets one answer per scope; made anew for a value or another object.
    private func answered<T>(_ entry: Entry, _ base: T, _ transform: () -> T?) -> T? {
        let value = base as Any
        guard type(of: value) is AnyObject.Type else { return transform() }
        let object = value as AnyObject
        let id = ObjectIdentifier(entry)
        let kept = holdings.withLock { holdings in holdings.answers[id].flatMap { $0.base === object ? $0 : nil } }
        if let kept { return (kept.answer ?? object) as? T }
        guard let made = transform() else { return nil }
        let isBase = type(of: made as Any) is AnyObject.Type && (made as AnyObject) === object
        return holdings.withLock { holdings in
            // Two first answers at once: the first kept is served to both.
            if let kept = holdings.answers[id], kept.base === object { return (kept.answer ?? object) as? T }
            holdings.answers[id] = Answered(base: object, answer: isBase ? nil : made)
            return made
        }
    }

    /// Identifies the relative entries of `key`'s bucket that wait for their first use, oldest first, and
    /// returns the one identified as `key`'s with the base its closure was answered with, when that base
    /// is exact. Inside a probe, first uses of another bucket nest (every bucket met before was found
    /// then, so none of its resolves is being built); one of a bucket being found on this chain only
    /// marks the probes.
    private func identifyPending(answering key: Key) -> (entry: Entry, base: Placeholder)? {
        guard let waiting = entries.index.withLock({ $0.pending[key.bucket] }), !waiting.isEmpty else { return nil }
        if !probes.isEmpty, finding.contains(key.bucket) {
            for probe in probes { probe.withLock { $0 = true } }
            return nil
        }
        // With others waiting in the bucket, a probe may meet them unfound: it owns what it builds,
        // so an inexact base's instances are never the scope's.
        let separately = waiting.count > 1
        var found: (entry: Entry, base: Placeholder)?
        for entry in waiting {
            switch entry.identity {
            case .resolve(let name):
                // Identified in another scope that shares the entry: file it here too.
                entries.file(entry, under: Key(container: key.container, type: key.type, name: name))
            case .refused:
                entries.drop(entry)
            case .pending:
                guard let selector = entry.selector,
                    let selected = OverrideRecording.select(
                        entry.valueType, mode: .base(of: entry, in: self, separately: separately),
                        describedAs: entry.description, selector: selector)
                else {
                    refuse(entry, problem: nil)
                    continue
                }
                if selected.key == key, selected.isExact { found = (entry, selected.answer) }
            }
        }
        return found
    }

    /// Takes a malformed entry out, reporting `problem` when there is one to report.
    private func refuse(_ entry: Entry, problem: String?) {
        entry.settle(.refused)
        entries.drop(entry)
        if let problem { OverrideProblem.report(problem) }
    }
}

/// A value carried through a recording: a value override's value, or a relative override's base.
///
/// `@unchecked Sendable` is sound here: a base is only read in the task that made it, while that task
/// waits for the closure it runs synchronously; a value override's value is `Sendable` itself.
struct Placeholder: @unchecked Sendable {
    let value: Any
}

/// Where a malformed override is reported: a test issue in the guarded test that declared it (the
/// rest of the run goes on), else a stop with the message, since no test is there to fail.
enum OverrideProblem {
    static func report(_ message: String) {
        guard Interception.injectionObserver?.record("override: " + message, { message }) == true else {
            fatalError(message)
        }
    }
}

/// Finds which resolve an override's closure (`{ $0.resolveClock() }`) calls, by running it with the
/// diagnosed path switched on.
///
/// Every resolution the closure makes itself (not the ones nested inside them) is recorded. A value
/// override answers each whose type fits with its value; a relative override answers the first, when it
/// is of the override's type and container, with the resolve's base, and files its entry under that
/// resolve before computing it, so resolutions nested in the base see it identified (and not in effect
/// there). A closure must make exactly one resolution, of a container's resolve without arguments;
/// anything else is reported naming what it called, and the override is left out.
final class OverrideRecording: ResolutionInterceptor {
    enum Mode: Sendable {
        case value(Placeholder)
        /// Answers with the base computed in a probe below the entry, made separately or sharing the set's instances.
        case base(of: OverrideSet.Entry, in: OverrideSet, separately: Bool)
    }

    struct Call {
        let name: String
        let requestedType: any Any.Type
        let container: (any DependencyContainer.Resolving)?
        let containerType: any AnyObject.Type
        let answer: Placeholder?
        let isExact: Bool
    }

    private let type: any Any.Type
    private let mode: Mode
    /// The override scope around the closure: where a call it does not answer runs.
    private let outer = Interception.current.overrides
    private let calls = Locked<[Call]>([])

    private init(type: any Any.Type, mode: Mode) {
        (self.type, self.mode) = (type, mode)
    }

    /// Runs `selector` and returns the resolve it selected, its container and what it was answered with,
    /// or `nil` once the problem is reported.
    static func select(
        _ type: any Any.Type, mode: Mode, describedAs description: String, selector: () -> Void
    ) -> (key: OverrideSet.Key, container: any DependencyContainer.Resolving, answer: Placeholder, isExact: Bool)? {
        let recording = OverrideRecording(type: type, mode: mode)
        DiagnosticsWord.register(.overrideSet)
        Interception.updating({ $0.overrides = recording }, operation: selector)
        DiagnosticsWord.unregister(.overrideSet)
        let calls = recording.calls.withLock { $0 }
        if let call = calls.first, calls.count == 1, !call.name.contains(":"), let container = call.container,
            let answer = call.answer
        {
            let key = OverrideSet.Key(
                container: ObjectIdentifier(container), type: ObjectIdentifier(call.requestedType), name: call.name)
            return (key, container, answer, call.isExact)
        }
        OverrideProblem.report(OverrideMessages.selection(calls, of: type, describedAs: description, mode: mode))
        return nil
    }

    /// Records a resolution the closure made itself and answers it as the mode says; one it does not
    /// answer runs as written, in the scope around the closure.
    func answer<R, Failure: Error>(
        _ name: String, of _: R.Type, container: AnyObject, next: () throws(Failure) -> R
    ) throws(Failure) -> R? {
        let isFirst = calls.withLock { $0.isEmpty }
        var answer: R?
        var isExact = true
        switch mode {
        case .value(let placeholder):
            // Every call the value fits is answered, so a malformed closure runs no production code.
            answer = placeholder.value as? R
        case .base(let entry, let set, let separately):
            if isFirst, ObjectIdentifier(R.self) == ObjectIdentifier(type), container === entry.container,
                !name.contains(":")
            {
                let key = OverrideSet.Key(
                    container: ObjectIdentifier(container), type: ObjectIdentifier(R.self), name: name)
                entry.settle(.resolve(name))
                set.entries.file(entry, under: key)
                let probe = set.view(below: entry.sequence, for: key, probing: true, separately: separately)
                answer = try Interception.outcome(overrides: probe, next).get()
                // A separate probe's base is served only when it holds none of the probe's instances.
                isExact = probe.probes.last?.withLock({ $0 }) != true && (!separately || probe.ownsNothing)
            }
        }
        let call = Call(
            name: name, requestedType: R.self, container: container as? any DependencyContainer.Resolving,
            containerType: Swift.type(of: container), answer: answer.map { Placeholder(value: $0) },
            isExact: isExact)
        calls.withLock { $0.append(call) }
        if let answer { return answer }
        return try Interception.outcome(overrides: outer, next).get()
    }
}
