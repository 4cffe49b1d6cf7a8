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
final class OverrideSet: Sendable {
    /// The overrides in effect for the current task.
    @TaskLocal static var current: OverrideSet?

    /// One override: which resolution of which container it answers, and how.
    struct Entry: Sendable {
        let container: any DependencyContainer.Resolving
        let name: String
        let type: ObjectIdentifier
        let answer: any OverrideAnswer

        func matches(_ name: String, type: ObjectIdentifier, container: ObjectIdentifier) -> Bool {
            ObjectIdentifier(self.container) == container && self.type == type && self.name == name
        }
    }

    /// The entries, outermost first; the last match wins.
    let entries: [Entry]

    init(entries: [Entry]) {
        self.entries = entries
        DiagnosticsWord.add(DiagnosticsWord.overrideUnit)
    }

    deinit {
        DiagnosticsWord.add(-DiagnosticsWord.overrideUnit)
    }

    /// Records `overrides` against `container`, each with the ones before it in effect (so a
    /// relative override builds on them), on top of the overrides already in effect.
    static func adding<Container>(_ overrides: [DependencyContainer.Override<Container>], for container: Container)
        -> OverrideSet?
    {
        let outer = current
        guard !overrides.isEmpty else { return outer }
        var entries = outer?.entries ?? []
        for override in overrides {
            let entry = $current.withValue(OverrideSet(entries: entries)) { override.record(container) }
            entries.append(entry)
        }
        return OverrideSet(entries: entries)
    }

    /// Answers a resolution from the overrides in effect (or records it, while an override's selector
    /// runs), or returns `nil` to let the resolution run as written.
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
        if let recording = OverrideRecording.current,
            let answer = recording.record(name, of: T.self, container: container)
        {
            let value = try answer.answer(
                as: T.self,
                next: { () throws(Failure) -> T in try OverrideRecording.$current.outcome(binding: nil, next).get() })
            guard let value else { mismatch(answer, name: name, of: T.self, container: container) }
            return value
        }
        guard let set = current else { return nil }
        let (type, id) = (ObjectIdentifier(T.self), ObjectIdentifier(container))
        guard let index = set.entries.lastIndex(where: { $0.matches(name, type: type, container: id) }) else {
            return nil
        }
        var below = set.entries
        below.remove(at: index)
        let answer = set.entries[index].answer
        let value = try answer.answer(
            as: T.self,
            next: { () throws(Failure) -> T in try $current.outcome(binding: OverrideSet(entries: below), next).get() })
        guard let value else { mismatch(answer, name: name, of: T.self, container: container) }
        return value
    }

    /// The asynchronous form of ``answer(_:of:container:next:)``.
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
        let (type, id) = (ObjectIdentifier(T.self), ObjectIdentifier(container))
        guard let index = set.entries.lastIndex(where: { $0.matches(name, type: type, container: id) }) else {
            return nil
        }
        var below = set.entries
        below.remove(at: index)
        let answer = set.entries[index].answer
        let value = try await answer.answer(
            as: T.self,
            isolation: isolation,
            next: { () async throws(Failure) -> T in
                try await $current.outcome(binding: OverrideSet(entries: below), isolation: isolation, next).get()
            })
        guard let value else { mismatch(answer, name: name, of: T.self, container: container) }
        return value
    }

    /// Stops: the override's value is not of the type the resolve builds.
    private static func mismatch<T>(
        _ answer: any OverrideAnswer,
        name: String,
        of _: T.Type,
        container: AnyObject
    ) -> Never {
        fatalError(
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
        )
    }
}

/// How an override answers: with a value, or with the enclosing value transformed.
///
/// An answer is made for the type the override's closure returns (`any Clock`); a resolve may build
/// a more precise one (`fresh { FixedClock(fixedHour: 9) }`), so answers convert with a dynamic cast,
/// off the hot path.
protocol OverrideAnswer: Sendable {
    /// The type the override's closure returns.
    var valueType: any Any.Type { get }

    /// The answer as `R`, or `nil` when it is not one; `next` serves the value without this override.
    func answer<R, Failure: Error>(as _: R.Type, next: () throws(Failure) -> R) throws(Failure) -> R?

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

    func answer<R, Failure: Error>(as _: R.Type, next: () throws(Failure) -> R) throws(Failure) -> R? {
        value as? R
    }

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

    func answer<R, Failure: Error>(as _: R.Type, next: () throws(Failure) -> R) throws(Failure) -> R? {
        guard let base = try next() as? T else { return nil }
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

/// Finds which resolution an override's selector (`{ $0.resolveClock() }`) makes, by running it
/// once with the diagnosed path switched on: the first resolution it makes is the one the override
/// answers, and is answered by it at once (a value override never runs production code).
final class OverrideRecording: Sendable {
    /// The recording the current task's selector runs in.
    @TaskLocal static var current: OverrideRecording?

    private let type: any Any.Type
    private let answer: any OverrideAnswer
    /// Whether the first resolution was seen, and the entry it made.
    private let state = Locked<(seen: Bool, entry: OverrideSet.Entry?)>((false, nil))

    private init(type: any Any.Type, answer: any OverrideAnswer) {
        self.type = type
        self.answer = answer
    }

    /// Runs `selector` and returns the entry for the first resolution it makes, answered by `answer`.
    static func entry<T: Sendable>(
        for _: T.Type,
        answer: any OverrideAnswer,
        describedAs description: String,
        selector: () -> Void
    ) -> OverrideSet.Entry {
        let recording = OverrideRecording(type: T.self, answer: answer)
        DiagnosticsWord.add(DiagnosticsWord.overrideUnit)
        let diverted = divertNestedResolutions()
        $current.withValue(recording, operation: selector)
        endDivertingNestedResolutions(diverted)
        DiagnosticsWord.add(-DiagnosticsWord.overrideUnit)
        guard let entry = recording.state.withLock({ $0.entry }) else {
            fatalError(
                """
                \(description): the closure resolved nothing that DependencyKit can see. An override \
                selects a resolve by calling it, and a resolve is seen only when its body is wrapped in \
                `fresh {}`, `live {}` or `shared {}` (and is not `async`). Wrap the resolve's body, for \
                example `func resolveClock() -> any Clock { live { SystemClock() } }`, and pass a closure \
                that only calls it: `.override({ $0.resolveClock() }, with: …)`.
                """
            )
        }
        return entry
    }

    /// Records the first resolution of the selector and returns how to answer it; `nil` for every
    /// later one, which runs as written.
    func record(_ name: String, of requested: any Any.Type, container: AnyObject) -> (any OverrideAnswer)? {
        let first = state.withLock { state in
            defer { state.seen = true }
            return !state.seen
        }
        guard first else { return nil }
        guard let container = container as? any DependencyContainer.Resolving else {
            fatalError(
                "An override of \(type) selected \(name) of \(Swift.type(of: container)), which is not a "
                    + "container: overrides answer the resolves of containers (`fresh {}`, `live {}`, `shared {}`)."
            )
        }
        let entry = OverrideSet.Entry(
            container: container, name: name, type: ObjectIdentifier(requested), answer: answer)
        state.withLock { $0.entry = entry }
        return answer
    }
}
