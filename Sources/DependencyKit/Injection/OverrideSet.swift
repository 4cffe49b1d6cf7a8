/// The overrides in effect for the current task: what `DependencyContainer.Override` installs.
///
/// A set lives in a task-local, so child tasks and `Task {}` see their parent's overrides and
/// tests running in parallel never see each other's. Each entry belongs to one container (by
/// identity, kept alive by the entry) and one resolve (its name and requested type), so an
/// override made for a test's container never answers another container's resolutions.
///
/// While a set exists it counts itself in the diagnostics word, which sends every resolution down
/// the diagnosed path, where ``answer(_:of:container:next:)`` looks it up before anything else.
/// With no set alive the word is untouched and the hot path is the same one relaxed load.
///
/// ## What the set promises (the rules of the Writing Tests article)
///
/// - **Lookup does not grow with the overrides alive.** Entries sit in buckets by container and
///   requested type, in the order they were declared; a lookup is a dictionary probe, a binary search
///   for the view's ceiling and a walk down the bucket that ends at the first entry for the resolve.
///   A nested scope copies its parent's buckets once (copy-on-write arrays), never per resolution.
/// - **A value override is found when its scope begins, without production code:** its selector runs
///   in a recording that answers every resolution it makes with the value.
/// - **A relative override is found on first use.** Its selector needs a value to return, and the
///   only value that is not production code run early is the one the resolution being served needs
///   anyway: so the engine waits for the first resolution of the override's container and type,
///   computes that resolution without the override (the base a relative override transforms), and
///   hands it to the selector as the recording's answer. A relative override of a resolve that is
///   never used never runs anything.
/// - **Instances that depend on an override stay with it.** See ``cached(_:in:make:serve:)``.
final class OverrideSet: Sendable {
    /// The overrides of the current task's scope.
    @TaskLocal static var currentInTask: OverrideSet?

    /// The overrides a serial XCTest installed for the whole process with its container
    /// (`useDependencies(_:_:…)`); a task's own overrides come first.
    private static let processWide = Locked<OverrideSet?>(nil)

    /// The overrides in effect for the current task: its scope's, else the process-wide ones.
    static var current: OverrideSet? {
        currentInTask ?? (DiagnosticsWord.hasOverrides(DiagnosticsWord.load()) ? processWide.withLock { $0 } : nil)
    }

    /// Installs `set` as the process-wide overrides and returns the ones it replaces.
    package static func installProcessWide(_ set: OverrideSet?) -> OverrideSet? {
        processWide.withLock { installed in
            defer { installed = set }
            return installed
        }
    }

    /// Which resolves an entry can answer: one container's resolutions of one requested type.
    struct Bucket: Hashable, Sendable {
        let container: ObjectIdentifier
        let type: ObjectIdentifier
    }

    /// One resolve of one container: what a value override answers.
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
        /// The resolve's name once known: at once for a value override, on first use for a relative one.
        private let identity: Locked<Identity>
        /// Finds the resolve of a relative override: runs its selector in a recording that answers with
        /// the placeholder, and returns what it selected (or the problem, already reported).
        let identify: (@Sendable (_ placeholder: Placeholder) -> Identity)?

        enum Identity: Sendable {
            case pending
            case resolve(String)
            /// Malformed; reported, and never answers.
            case refused
        }

        init(
            container: any AnyObject & Sendable,
            answer: any OverrideAnswer,
            identity: Identity,
            identify: (@Sendable (_ placeholder: Placeholder) -> Identity)?
        ) {
            sequence = OverrideSet.nextSequence.add(1)
            self.container = container
            self.answer = answer
            self.identity = Locked(identity)
            self.identify = identify
        }

        var currentIdentity: Identity { identity.withLock { $0 } }

        /// Set once the entry has answered a resolution.
        private let answeredWord = AtomicWord(0)

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

        func settle(_ found: Identity) { identity.withLock { $0 = found } }
    }

    private static let nextSequence = AtomicWord(0)

    /// The entries by container and requested type, each bucket in declaration order.
    let buckets: [Bucket: [Entry]]
    /// The containers any entry answers, for the cached lifetimes' first check.
    let containers: Set<ObjectIdentifier>
    /// For a relative override's base: per resolve, the sequence at and above which entries are not
    /// in effect.
    let ceilings: [Key: Int]
    /// Relative entries set aside while their own base is computed (before their resolve is known).
    let excluded: Set<Int>
    /// Instances of cached lifetimes (shared, weakShared, scoped) that depend on an override in this
    /// set, and the call sites known not to: see ``cached(_:in:make:serve:)``.
    let instances = Locked<CachedInstances>(CachedInstances())

    struct CachedInstances {
        var values: [CacheKey: any Sendable] = [:]
        var independent: Set<CacheKey> = []
    }

    struct CacheKey: Hashable, Sendable {
        let container: ObjectIdentifier
        let site: SharedKey
    }

    private init(
        buckets: [Bucket: [Entry]], containers: Set<ObjectIdentifier>, ceilings: [Key: Int], excluded: Set<Int>
    ) {
        self.buckets = buckets
        self.containers = containers
        self.ceilings = ceilings
        self.excluded = excluded
        DiagnosticsWord.count(in: .overrideSet)
    }

    deinit {
        DiagnosticsWord.add(-DiagnosticsWord.overrideUnit)
    }

    /// This set with `key` answered only by entries declared before `sequence`.
    private func view(below sequence: Int, for key: Key) -> OverrideSet {
        var ceilings = self.ceilings
        ceilings[key] = sequence
        return OverrideSet(buckets: buckets, containers: containers, ceilings: ceilings, excluded: excluded)
    }

    /// This set without the relative entry `sequence`.
    private func view(excluding sequence: Int) -> OverrideSet {
        OverrideSet(
            buckets: buckets, containers: containers, ceilings: ceilings, excluded: excluded.union([sequence]))
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
        var buckets = outer?.buckets ?? [:]
        var containers = outer?.containers ?? []
        var own: [Entry] = []
        for override in overrides {
            guard let (entry, type) = override.record(container) else { continue }
            let id = ObjectIdentifier(entry.container)
            containers.insert(id)
            buckets[Bucket(container: id, type: type), default: []].append(entry)
            own.append(entry)
        }
        return (OverrideSet(buckets: buckets, containers: containers, ceilings: [:], excluded: []), own)
    }

    /// Answers a resolution from the overrides in effect (or from the recording, while an override's
    /// selector runs), or returns `nil` to let the resolution run as written.
    ///
    /// - Parameters:
    ///   - next: Serves the resolution as it would be served without the answering override: the
    ///     value a relative override transforms.
    static func answer<T, Failure: Error>(
        _ name: String,
        of _: T.Type,
        container: AnyObject?,
        next: () throws(Failure) -> T
    ) throws(Failure) -> T? {
        guard DiagnosticsWord.hasOverrides(DiagnosticsWord.load()), let container else { return nil }
        if let recording = OverrideRecording.current {
            return try recording.answer(name, of: T.self, container: container, next: next)
        }
        guard let set = current else { return nil }
        return try set.answer(name, of: T.self, container: container, next: next)
    }

    private func answer<T, Failure: Error>(
        _ name: String,
        of _: T.Type,
        container: AnyObject,
        next: () throws(Failure) -> T
    ) throws(Failure) -> T? {
        let bucket = Bucket(container: ObjectIdentifier(container), type: ObjectIdentifier(T.self))
        guard let entries = buckets[bucket] else { return nil }
        let key = Key(bucket: bucket, name: name)
        var index = Self.count(of: entries, below: ceilings[key])
        while index > 0 {
            index -= 1
            let entry = entries[index]
            if excluded.contains(entry.sequence) { continue }
            switch entry.currentIdentity {
            case .refused:
                continue
            case .resolve(let selected):
                guard selected == name else { continue }
                return try answer(with: entry, key: key, of: T.self, container: container, next: next)
            case .pending:
                // The first use of a relative override of this container and type: its base is this
                // resolution without it, which is also the placeholder its selector returns.
                let base = try Self.$currentInTask.outcome(binding: view(excluding: entry.sequence), next).get()
                let found = entry.identify?(Placeholder(value: base)) ?? .refused
                entry.settle(found)
                guard case .resolve(name) = found else { return base }
                return try answer(with: entry, key: key, of: T.self, container: container, base: base, next: next)
            }
        }
        return nil
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

    /// Answers with `entry`, whose resolve is this resolution's.
    private func answer<T, Failure: Error>(
        with entry: Entry,
        key: Key,
        of _: T.Type,
        container: AnyObject,
        base: T? = nil,
        next: () throws(Failure) -> T
    ) throws(Failure) -> T? {
        Dependence.noteOverride()
        entry.noteAnswered()
        if entry.answer.isRelative, Answering.contains(entry.sequence) {
            OverrideProblem.report(
                """
                The transform of a relative override of \(key.name) of \(Swift.type(of: container)) resolves \
                \(key.name) again, which would apply the override without end. Use the value the transform \
                is given: `.override({ $0.\(key.name) }) { base in … base … }`.
                """)
            return try Self.$currentInTask.outcome(binding: view(below: entry.sequence, for: key), next).get()
        }
        let below = view(below: entry.sequence, for: key)
        let value = try Answering.while(entry.sequence) { () throws(Failure) -> T? in
            if let base { return entry.answer.transform(base) }
            return try entry.answer.answer(
                as: T.self,
                next: { () throws(Failure) -> T in try Self.$currentInTask.outcome(binding: below, next).get() })
        }
        guard let value else {
            entry.settle(.refused)
            OverrideProblem.report(Self.mismatch(entry.answer, name: key.name, of: T.self, container: container))
            return nil
        }
        return value
    }

    /// The asynchronous form of ``answer(_:of:container:next:)``. A relative override is identified by a
    /// synchronous resolution; until one has been made, asynchronous resolutions run as written.
    static func answer<T, Failure: Error>(
        _ name: String,
        of _: T.Type,
        container: AnyObject?,
        isolation: isolated (any Actor)?,
        next: () async throws(Failure) -> T
    ) async throws(Failure) -> T? {
        guard DiagnosticsWord.hasOverrides(DiagnosticsWord.load()), let container, let set = current else {
            return nil
        }
        let bucket = Bucket(container: ObjectIdentifier(container), type: ObjectIdentifier(T.self))
        guard let entries = set.buckets[bucket] else { return nil }
        let key = Key(bucket: bucket, name: name)
        var index = count(of: entries, below: set.ceilings[key])
        while index > 0 {
            index -= 1
            let entry = entries[index]
            guard !set.excluded.contains(entry.sequence), case .resolve(name) = entry.currentIdentity else { continue }
            Dependence.noteOverride()
            entry.noteAnswered()
            let below = set.view(below: entry.sequence, for: key)
            let value = try await entry.answer.answer(
                as: T.self,
                isolation: isolation,
                next: { () async throws(Failure) -> T in
                    try await $currentInTask.outcome(binding: below, isolation: isolation, next).get()
                })
            guard let value else {
                entry.settle(.refused)
                OverrideProblem.report(mismatch(entry.answer, name: name, of: T.self, container: container))
                return nil
            }
            return value
        }
        return nil
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

    // MARK: - Cached lifetimes

    /// What a cached lifetime's resolution does inside this set; see ``OverrideCaches``.
    enum CachedStep<T> {
        /// Serve the scope's instance.
        case found(T)
        /// Serve the container's instance: the call site does not depend on this scope's overrides.
        case container
        /// Build, with a ``Dependence`` record, and ``settle(_:_:built:record:)`` the outcome.
        case build(OverrideSet, CacheKey)
    }

    /// The first half of a cached lifetime's resolution while overrides may be in effect.
    static func cachedStep<T>(_ site: SharedKey, of _: T.Type, in container: AnyObject) -> CachedStep<T> {
        guard DiagnosticsWord.hasOverrides(DiagnosticsWord.load()), OverrideRecording.current == nil,
            let set = current, set.containers.contains(ObjectIdentifier(container))
        else { return .container }
        let key = CacheKey(container: ObjectIdentifier(container), site: site)
        let (known, independent) = set.instances.withLock { ($0.values[key], $0.independent.contains(key)) }
        if let known, let value = known as? T {
            Dependence.noteOverride()
            return .found(value)
        }
        return independent ? .container : .build(set, key)
    }

    /// The second half: keeps `built` in the set when an override reached its build and returns what
    /// to serve, or returns `nil` when the container's instance is to be served (`built` becoming it
    /// if the container has none).
    static func settle<T: Sendable>(_ set: OverrideSet, _ key: CacheKey, built: T, record: Dependence) -> T? {
        guard record.dependsOnOverride else {
            set.instances.withLock { _ = $0.independent.insert(key) }
            return nil
        }
        Dependence.noteOverride()
        return set.instances.withLock { instances in
            // Two tasks of one scope may build at once; the first stored is the scope's instance.
            if let stored = instances.values[key], let value = stored as? T { return value }
            instances.values[key] = built
            return built
        }
    }
}

/// Cached lifetimes (`shared {}`, `weakShared {}`, `scoped {}`) while an override set is alive: the
/// builders call these instead of their cells when the diagnostics word counts a live override set.
///
/// The rule (the Writing Tests article): nothing built while an override is in effect is served
/// where it is not, and inside the scope every value that depends on an overridden resolve reflects
/// it. The engine learns what depends on what by building: the first time a scope asks for a call
/// site's instance, `make` runs with a ``Dependence`` record bound, which notes whether any override
/// answered during the build (directly, or through another cached instance that depends on one).
///
/// - It did: the instance belongs to the scope. The override set keeps it, serves it to every later
///   resolution in the scope, and releases it with the scope; the container never sees it. (A
///   `weakShared {}` instance is held strongly there, for the scope's life.)
/// - It did not: the call site does not depend on the scope's overrides. The container's instance is
///   served (the one just built becomes it when the container has none, so nothing is built twice
///   then; when the container had one, the one built to find out is dropped), and the scope
///   remembers the answer.
@usableFromInline
enum OverrideCaches {
    /// `shared {}` while an override set is alive.
    @usableFromInline
    static func shared<T: Sendable>(
        _ site: SharedKey,
        in container: DependencyContainer,
        describedBy describe: () -> String,
        make: () throws -> T
    ) rethrows -> T {
        let cell = container.sharedInstances.cell(for: site) { OnceCell<T>() }
        switch OverrideSet.cachedStep(site, of: T.self, in: container) {
        case .found(let value): return value
        case .container: return try cell.value(describedBy: describe, make: make)
        case .build(let set, let key):
            let record = Dependence()
            let built = try Dependence.$current.withValue(record, operation: make)
            if let kept = OverrideSet.settle(set, key, built: built, record: record) { return kept }
            return cell.value(describedBy: describe, make: { built })
        }
    }

    /// `weakShared {}` while an override set is alive.
    @usableFromInline
    static func weakShared<T: Sendable>(
        _ site: SharedKey,
        in container: DependencyContainer,
        describedBy describe: () -> String,
        make: () throws -> (store: WeakReference, result: T)
    ) rethrows -> T {
        let cell = container.sharedInstances.cell(for: site) { OnceCell<WeakReference>() }
        switch OverrideSet.cachedStep(site, of: T.self, in: container) {
        case .found(let value): return value
        case .container: return try cell.value(describedBy: describe, read: { $0.object as? T }, make: make)
        case .build(let set, let key):
            let record = Dependence()
            let built = try Dependence.$current.withValue(record, operation: make)
            if let kept = OverrideSet.settle(set, key, built: built.result, record: record) { return kept }
            return cell.value(describedBy: describe, read: { $0.object as? T }, make: { built })
        }
    }

    /// `scoped {}` while an override set is alive.
    @usableFromInline
    static func scoped<T: Sendable>(
        _ site: SharedKey,
        in container: DependencyContainer,
        cell: ScopedCell<T>,
        describedBy describe: (_ generation: Int) -> String,
        make: () throws -> T
    ) rethrows -> T {
        switch OverrideSet.cachedStep(site, of: T.self, in: container) {
        case .found(let value): return value
        case .container:
            if let instance = cell.instance() { return instance }
            return try cell.create(describedBy: describe, make: make)
        case .build(let set, let key):
            let record = Dependence()
            let built = try Dependence.$current.withValue(record, operation: make)
            if let kept = OverrideSet.settle(set, key, built: built, record: record) { return kept }
            if let instance = cell.instance() { return instance }
            return cell.create(describedBy: describe, make: { built })
        }
    }

    /// The asynchronous `shared {}` while an override set is alive.
    @usableFromInline
    static func shared<T: Sendable, Failure: Error>(
        _ site: SharedKey,
        in container: DependencyContainer,
        cell: AsyncOnceCell<T>,
        describedBy describe: () -> String,
        isolation: isolated (any Actor)?,
        make: () async throws(Failure) -> T
    ) async throws(Failure) -> T {
        switch OverrideSet.cachedStep(site, of: T.self, in: container) {
        case .found(let value): return value
        case .container: return try await cell.value(describedBy: describe, isolation: isolation, make: make)
        case .build(let set, let key):
            let record = Dependence()
            let built = try await Dependence.$current.outcome(binding: record, isolation: isolation, make).get()
            if let kept = OverrideSet.settle(set, key, built: built, record: record) { return kept }
            return await cell.value(describedBy: describe, isolation: isolation, make: { built })
        }
    }
}

/// The value a relative override's recording answers its selector with: the base its first use
/// computed (see ``OverrideSet``).
///
/// `@unchecked Sendable` is sound here: the value is only read by the recording, in the task that made
/// it, while that task waits for the selector it runs synchronously; nothing keeps it afterwards.
struct Placeholder: @unchecked Sendable {
    let value: Any
}

/// Whether a build depended on an override: bound while a cached lifetime's instance is built inside
/// an override scope (see ``OverrideSet/cached(_:in:make:serve:)``).
final class Dependence: Sendable {
    @TaskLocal static var current: Dependence?

    private let word = AtomicWord(0)

    /// Whether an override answered, or an instance that depends on one was served, during the build.
    var dependsOnOverride: Bool { word.loadAcquire() != 0 }

    /// Notes, in the build in progress, that an override's answer reached it.
    static func noteOverride() {
        current?.word.storeRelease(1)
    }
}

/// The relative entries answering in the current task, to name a transform that resolves its own
/// resolve instead of recursing without end.
enum Answering {
    final class Node: Sendable {
        let sequence: Int
        let parent: Node?

        init(sequence: Int, parent: Node?) {
            self.sequence = sequence
            self.parent = parent
        }
    }

    @TaskLocal static var current: Node?

    static func contains(_ sequence: Int) -> Bool {
        var node = current
        while let candidate = node {
            if candidate.sequence == sequence { return true }
            node = candidate.parent
        }
        return false
    }

    static func `while`<R, Failure: Error>(_ sequence: Int, _ body: () throws(Failure) -> R) throws(Failure) -> R {
        try $current.outcome(binding: Node(sequence: sequence, parent: current), body).get()
    }
}

/// Where a malformed override is reported: a test issue in the guarded test that declared it (the
/// rest of the run goes on), else a stop with the message, since no test is there to fail.
enum OverrideProblem {
    static func report(_ message: String) {
        if let context = TestContext.inEffect {
            context.reportOnce("override: " + message) { message }
            return
        }
        fatalError(message)
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

    /// The answer as `R`, or `nil` when it is not one; `next` serves the value without this override.
    func answer<R, Failure: Error>(as _: R.Type, next: () throws(Failure) -> R) throws(Failure) -> R?

    /// The answer made from `base`, the value without this override, as `R`.
    func transform<R>(_ base: R) -> R?

    /// The asynchronous form of ``answer(as:next:)``.
    func answer<R, Failure: Error>(
        as _: R.Type,
        isolation: isolated (any Actor)?,
        next: () async throws(Failure) -> R
    ) async throws(Failure) -> R?
}

/// Answers with one value, made when the override's scope began.
struct ValueAnswer<T: Sendable>: OverrideAnswer {
    let value: T

    var valueType: any Any.Type { T.self }

    var isRelative: Bool { false }

    func answer<R, Failure: Error>(as _: R.Type, next: () throws(Failure) -> R) throws(Failure) -> R? {
        value as? R
    }

    func transform<R>(_ base: R) -> R? { value as? R }

    func answer<R, Failure: Error>(
        as _: R.Type,
        isolation: isolated (any Actor)?,
        next: () async throws(Failure) -> R
    ) async throws(Failure) -> R? {
        value as? R
    }
}

/// Answers with the value the resolution has without this override, transformed.
struct RelativeAnswer<T: Sendable>: OverrideAnswer {
    let transform: @Sendable (T) -> T

    var valueType: any Any.Type { T.self }

    var isRelative: Bool { true }

    func answer<R, Failure: Error>(as _: R.Type, next: () throws(Failure) -> R) throws(Failure) -> R? {
        guard let base = try next() as? T else { return nil }
        return transform(base) as? R
    }

    func transform<R>(_ base: R) -> R? {
        guard let base = base as? T else { return nil }
        return transform(base) as? R
    }

    func answer<R, Failure: Error>(
        as _: R.Type,
        isolation: isolated (any Actor)?,
        next: () async throws(Failure) -> R
    ) async throws(Failure) -> R? {
        guard let base = try await next() as? T else { return nil }
        return transform(base) as? R
    }
}

/// Finds which resolve an override's selector (`{ $0.resolveClock() }`) calls, by running it with
/// the diagnosed path switched on.
///
/// Every resolution the selector makes itself (not the ones nested inside them) is recorded. Those of
/// the override's type are answered at once with the recording's value — the override's value, or,
/// for a relative override, the base its first use computed — so recording never runs the production
/// code of the resolve it selects. A selector must make exactly one resolution, of a container's
/// resolve without arguments; anything else is reported naming what it called, and the override is
/// left out.
final class OverrideRecording: Sendable {
    /// The recording the current task's selector runs in.
    @TaskLocal static var current: OverrideRecording?

    private let type: any Any.Type
    private let value: Placeholder
    private let calls = Locked<[Call]>([])

    private struct Call {
        let name: String
        let requestedType: any Any.Type
        let container: (any DependencyContainer.Resolving)?
        let containerType: any AnyObject.Type
        let answered: Bool
    }

    private init(type: any Any.Type, value: Placeholder) {
        self.type = type
        self.value = value
    }

    /// Runs `selector` and returns the resolve it selected, with its container and requested type, or
    /// `nil` once the problem is reported.
    static func select<T: Sendable>(
        _: T.Type,
        answeringWith value: Placeholder,
        describedAs description: String,
        selector: () -> Void
    ) -> (name: String, container: any DependencyContainer.Resolving, type: ObjectIdentifier)? {
        let recording = OverrideRecording(type: T.self, value: value)
        DiagnosticsWord.count(in: .overrideSet)
        let diverted = divertNestedResolutions()
        $current.withValue(recording, operation: selector)
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
        guard call.answered else {
            OverrideProblem.report(
                """
                An override of \(T.self) selected \(call.name) of \(call.containerType), which builds a \
                \(call.requestedType), and the override's value is not one. If the closure calls only that resolve, \
                its body builds a \(call.requestedType) instead of the type the resolve returns: a body that is a \
                single `return` statement, such as `fresh { return SystemClock() }`, builds its expression's type: \
                drop the `return`, or convert the value (`fresh { return SystemClock() as any Clock }`).
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
        return (call.name, container, ObjectIdentifier(call.requestedType))
    }

    /// Records a resolution the selector made itself and answers it with the recording's value when
    /// that is of the requested type; otherwise it runs as written, with the recording out of the way.
    func answer<R, Failure: Error>(
        _ name: String,
        of _: R.Type,
        container: AnyObject,
        next: () throws(Failure) -> R
    ) throws(Failure) -> R {
        let value = self.value.value as? R
        let call = Call(
            name: name, requestedType: R.self, container: container as? any DependencyContainer.Resolving,
            containerType: Swift.type(of: container), answered: value != nil)
        calls.withLock { $0.append(call) }
        if let value { return value }
        return try Self.$current.outcome(binding: nil, next).get()
    }
}
