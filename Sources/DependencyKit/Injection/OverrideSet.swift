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
package final class OverrideSet: OverrideScope {
    /// One resolve of one container; with an empty name, every resolve of the type (a bucket).
    struct Key: Hashable, Sendable {
        let container: ObjectIdentifier
        let type: ObjectIdentifier
        var name = ""

        var bucket: Key { Key(container: container, type: type) }

        // The name is compared, not hashed: a scope overrides few resolves of one type and container, and
        // hashing a resolve's name on every answer cost a tenth of a request's override scope.
        func hash(into hasher: inout Hasher) {
            hasher.combine(container)
            hasher.combine(type)
        }
    }

    let entries: Locked<Entries>
    /// This set's serial number: what an `@Inject` holder keeps to know its value came from it.
    package let serialNumber = SerialNumber.next()
    /// Per resolve, the order at and above which entries are not in effect in this view.
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
    /// Whether a miss is noted on the overrides of the same resolve of another container: only in a scope
    /// that reports its unused overrides (a test's), and its views.
    private let notesMisses: Bool

    /// The cached instances a scope owns, per container, and its relative overrides' answers.
    /// `@unchecked Sendable` is sound: its tables are `Sendable`, and each `Answered` is read and written
    /// only under ``holdings``'s lock.
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
        entries: Locked<Entries>, ceilings: [Key: Int], probes: [Locked<Bool>] = [], finding: Set<Key> = [],
        holdings: Locked<Holdings> = Locked(Holdings()), whenFreed: Release? = nil, notesMisses: Bool = false
    ) {
        (self.entries, self.ceilings, self.probes, self.finding) = (entries, ceilings, probes, finding)
        (self.holdings, self.whenFreed) = (holdings, whenFreed)
        self.notesMisses = notesMisses || whenFreed != nil
        DiagnosticsWord.register(.overrideSet)
    }

    deinit {
        DiagnosticsWord.unregister(.overrideSet)
        whenFreed?.end(freed: true)
    }

    /// The moment an override scope's set is freed, which a task waits for: how the unused check learns
    /// that the tasks a test started are done with its overrides, without polling.
    package final class Release: Sendable {
        /// Whether the set was freed; whether the wait is over (freed, out of time or cancelled); the
        /// waiting task, resumed with whether the set was freed.
        private let state = Locked<(freed: Bool, over: Bool, waiter: CheckedContinuation<Bool, Never>?)>(
            (false, false, nil))

        package init() {}

        /// Ends the wait, the set freed or not: the first call resumes the waiting task, a later one
        /// changes nothing.
        func end(freed: Bool) {
            state.withLock { state -> CheckedContinuation<Bool, Never>? in
                if freed { state.freed = true }
                guard !state.over else { return nil }
                state.over = true
                defer { state.waiter = nil }
                return state.waiter
            }?.resume(returning: freed)
        }

        /// Waits until the set is freed, or at most `nanoseconds`, or until the waiting task is cancelled.
        /// - Returns: Whether the set was freed.
        package func wait(atMost nanoseconds: UInt64) async -> Bool {
            // A deadline, not a poll: it decides nothing but when to stop waiting for a task that leaked.
            // Detached, so that it holds none of the task's scopes.
            let deadline = Task.detached {
                try? await Task.sleep(nanoseconds: nanoseconds)
                self.end(freed: false)
            }
            defer { deadline.cancel() }
            return await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                    let now = state.withLock { state -> Bool? in
                        if state.over { return state.freed }
                        state.waiter = continuation
                        return nil
                    }
                    if let now { continuation.resume(returning: now) }
                }
            } onCancel: {
                deadline.cancel()
            }
        }
    }

    /// This set with `key` answered only by entries declared before `order`, owning what this set
    /// owns. A probe view is made anew, finding `key`'s bucket; one made separately owns instances of its own.
    func view(below order: Int, for key: Key, probing: Bool = false, separately: Bool = false) -> OverrideSet {
        var ceilings = self.ceilings
        ceilings[key] = min(order, ceilings[key] ?? .max)
        if probing {
            return OverrideSet(
                entries: entries, ceilings: ceilings, probes: probes + [Locked(false)],
                finding: finding.union([key.bucket]), holdings: separately ? Locked(Holdings()) : holdings,
                notesMisses: notesMisses)
        }
        return views.withLock { views in
            // Found, a view is returned as is: a dictionary write on every answer costs 10 %.
            if let made = views[key]?[order] { return made }
            let made = OverrideSet(
                entries: entries, ceilings: ceilings, probes: probes, finding: finding, holdings: holdings,
                notesMisses: notesMisses)
            views[key, default: [:]][order] = made
            return made
        }
    }

    /// Whether a relative override in effect here transforms `name`, a resolve of `type` of the container
    /// with identity `container`: the test guard's question when that resolve's base reaches the outside world.
    package func hasRelativeOverride(of name: String, type: any Any.Type, container: ObjectIdentifier) -> Bool {
        let key = Key(container: container, type: ObjectIdentifier(type), name: name)
        // Every view of the scope counts: the base of a relative override is computed in the view below it.
        return entries.withLock {
            ($0.named[key] ?? []).contains(where: \.isRelative)
                || ($0.pending[key.bucket] ?? []).contains(where: \.isRelative)
        }
    }

    /// The cached instances this scope owns for `container`, made on first use (the rule above).
    package func instances(for container: DependencyContainer) -> OwnedInstances? {
        holdings.withLock { ValueScope.instances(in: &$0.tables, for: container) }
    }

    /// Whether this view has built no cached instance and made no relative answer.
    var ownsNothing: Bool { holdings.withLock { $0.tables.isEmpty && $0.answers.isEmpty } }

    /// Records `overrides` against `container` on top of the overrides in effect, and returns the scope
    /// with the entries the overrides made (a malformed one is reported and left out); with no overrides,
    /// the scope in effect.
    package static func recording<Container>(
        _ overrides: [DependencyContainer.Override<Container>], for container: Container, whenFreed: Release? = nil
    ) -> (set: (any ResolutionInterceptor)?, entries: [Entry]) {
        let outer = Interception.overrides
        guard !overrides.isEmpty else { return (outer, []) }
        return recording(
            { overrides.compactMap { $0.prepare(container as AnyObject)?.entry } }, outer: outer, whenFreed: whenFreed)
    }

    /// The set of `recorded` on top of `outer`: an outer set's entries, or an outer value scope's values
    /// as the first entries, outermost first, made before `recorded` so that each comes earlier in order.
    static func recording(
        _ recorded: () -> [Entry], outer: (any ResolutionInterceptor)?, whenFreed: Release? = nil
    ) -> (set: OverrideSet, entries: [Entry]) {
        let outerSet = outer as? OverrideSet
        var index = outerSet?.entries.withLock { $0 } ?? Entries()
        let outerValues = (outer as? ValueScope)?.valueOverrides.reversed().compactMap(\.entry) ?? []
        let recorded = recorded()
        for entry in outerValues + recorded {
            let list = entry.key.name.isEmpty ? \Entries.pending : \.named
            index[keyPath: list][entry.key, default: []].append(entry)
        }
        // An outer view's ceilings stay: code inside a relative override's transform keeps its view.
        return (
            OverrideSet(entries: Locked(index), ceilings: outerSet?.ceilings ?? [:], whenFreed: whenFreed), recorded
        )
    }

    // MARK: - Answering

    /// Answers a resolution from this scope's overrides, or returns `nil` to let it run as written: a value
    /// override with its value, a relative one with its transform of the resolve's base, served in the view
    /// below its entry. Relative overrides waiting in the resolution's bucket are found first.
    package func answer<T>(_ name: String, of _: T.Type, container: AnyObject, base: inout InterceptorBase?) -> Any? {
        let key = Key(container: ObjectIdentifier(container), type: ObjectIdentifier(T.self), name: name)
        let found = identifyPending(answering: key)
        guard let entry = inEffect(key, of: container) else { return nil }
        guard case .relative = entry.answer else { return finish(entry, key, container, base: nil as T?).map { $0 } }
        let below = view(below: entry.order, for: key)
        if found?.entry === entry, let exact = found?.base.value as? T {
            return finish(entry, key, container, base: exact, in: below).map { $0 }
        }
        base = InterceptorBase(overrides: below) { self.finish(entry, key, container, base: $0 as? T, in: below) }
        return nil
    }

    /// The entry that answers `key` in this view — the latest identified one below the view's ceiling —
    /// noted as answered.
    private func inEffect(_ key: Key, of container: AnyObject) -> Entry? {
        let ceiling = ceilings[key] ?? .max
        let entry = entries.withLock { index -> Entry? in
            guard let list = index.named[key] else { return nil }
            // A binary search for the ceiling, then down past refused entries.
            var (low, high) = (0, list.count)
            while low < high {
                let middle = (low + high) / 2
                if list[middle].order < ceiling { low = middle + 1 } else { high = middle }
            }
            return list[..<low].last { $0.identity != .refused }
        }
        guard let entry else {
            // The overrides of the resolve made for another container do not reach `container`, where the code
            // resolved it: the unused-override message names it.
            if notesMisses {
                let missed = entries.withLock {
                    $0.named.filter { $0.key.name == key.name && $0.key.type == key.type && $0.key != key }.values
                        .joined()
                }
                for entry in missed { entry.noteResolved(on: container) }
            }
            return nil
        }
        entry.noteAnswered()
        return entry
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
        let (object, id) = (value as AnyObject, ObjectIdentifier(entry))
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
        guard let waiting = entries.withLock({ $0.pending[key.bucket] }), !waiting.isEmpty else { return nil }
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
                entries.withLock { $0.file(entry, under: Key(container: key.container, type: key.type, name: name)) }
            case .refused:
                entries.withLock { $0.drop(entry) }
            case .pending:
                guard let selector = entry.selector,
                    let selected = OverrideRecording.select(
                        entry.valueType, mode: .base(of: entry, in: self, separately: separately), selector: selector)
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
        entries.withLock { $0.drop(entry) }
        if let problem { OverrideMessages.report(problem) }
    }
}
