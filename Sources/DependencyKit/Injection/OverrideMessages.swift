/// What the override engine tells a user, apart from the mechanism that decides when to say it
/// (`OverrideSet.swift`, `DependencyOverride.swift`): a malformed override, and an override that
/// answered nothing. Each message names what the test wrote and the fix to paste.
enum OverrideMessages {
    /// Reports a malformed override: a test issue in the guarded test that declared it (the rest of the
    /// run goes on), else a stop with the message, since no test is there to fail.
    static func report(_ message: String) {
        guard Interception.injectionObserver?.record("override: " + message, { message }) == true else {
            fatalError(message)
        }
    }

    /// Why the calls an override's closure made (`calls`, in order, recorded in `mode`) select no resolve.
    static func selection(_ calls: [OverrideRecording.Call], of type: Any.Type, mode: OverrideRecording.Mode) -> String
    {
        let description =
            if case .base(let entry, _, _) = mode { entry.description } else { "An override with a \(type)" }
        if let returned = calls.last, calls.count > 1 {
            // The closure's value is what its last call returned: that is the resolve it meant.
            return """
                \(description) calls \(calls.count) resolves: \
                \(calls.map { "\($0.name) of \($0.containerType)" }.joined(separator: ", ")). An override replaces \
                one resolve, so its closure must call exactly one, and nothing else: \
                `.override({ $0.\(returned.name) }, with: …)`. To replace several, write one override each.
                """
        }
        guard let call = calls.first else {
            return """
                \(description): the closure resolved nothing that DependencyKit can see. An override selects a \
                resolve by calling it, and a resolve is seen only when its body is wrapped in `fresh {}`, \
                `live {}` or `shared {}` (and is not `async`). Wrap the resolve's body, for example \
                `func resolveClock() -> any Clock { live { SystemClock() } }`, and pass a closure that only \
                calls it: `.override({ $0.resolveClock() }, with: …)`.
                """
        }
        if call.name.contains(":") {
            return """
                \(description) selects \(call.name) of \(call.containerType), which takes arguments. DependencyKit \
                never sees a resolve's arguments (its builder captures them), so such an override would answer \
                every argument alike. Override what the resolve builds on instead (the store or client it reads), \
                or answer per argument in a subclass: `override func \(call.name.prefix { $0 != "(" })(…) -> … { … }`.
                """
        }
        guard let container = call.container else {
            return """
                \(description) selects \(call.name) of \(call.containerType), which is not a container: overrides \
                answer the resolves of containers (`fresh {}`, `live {}`, `shared {}`).
                """
        }
        if case .base(let entry, _, _) = mode, container !== entry.container {
            return """
                \(description) selects \(call.name) of \(call.containerType), not a resolve of the container it \
                is made for (\(Swift.type(of: entry.container))). Override it where that container is in effect.
                """
        }
        return mismatch(type, call.name, call.requestedType, container)
    }

    /// The message for an override whose value is not of the type the resolve builds.
    static func mismatch(_ valueType: Any.Type, _ name: String, _ type: Any.Type, _ container: AnyObject) -> String {
        """
        An override of \(valueType) selected \(name) of \(Swift.type(of: container)), which builds a \(type), \
        and the override's value is not one. The closure passed to `.override(_:…)` must call the resolve \
        to override and nothing else. If it does, the resolve's body builds a \(type) instead of the type \
        the resolve returns: a body that is a single `return` statement, such as \
        `fresh { return SystemClock() }`, builds its expression's type. In \(name), drop the `return` \
        (`fresh { SystemClock() }` in `func resolveClock() -> any Clock` builds an `any Clock`), or \
        convert the value (`fresh { return SystemClock() as any Clock }`). A builder given a function \
        instead of a closure (`fresh(SystemClock.init)`) builds that function's type too: wrap it in braces.
        """
    }

    /// What to tell a test whose override nothing resolved; `nil` for a malformed one (already reported).
    static func unused(_ entry: OverrideSet.Entry) -> String? {
        let container = Swift.type(of: entry.container)
        switch entry.identity {
        case .refused: return nil
        case .resolve(let name):
            if let other = entry.resolvedElsewhere {
                let which = other == container ? "another \(other) than the one it was made for" : "a \(other)"
                return """
                    This test overrides \(name) of \(container), but nothing resolved it there: the code resolved \
                    \(name) on \(which), and an override reaches only the container it was made for. If the code \
                    makes that container itself (a request's own container), make the override for it, or have its \
                    \(name) forward to the container the test overrides; or put the request's values in effect with \
                    a per-request override on the app's container (the Server Apps article), which the test's \
                    overrides reach.
                    """
            }
            return """
                This test overrides \(name) of \(container), but nothing resolved it: the test no longer \
                exercises what it fakes. Remove the override, or reach the code under test through the \
                container (`dependencies.\(name)`, or a value resolved from it) instead of building it by hand.
                """
        case .pending:
            return """
                This test has a relative override of a \(entry.valueType) for \(container), but nothing resolved a \
                \(entry.valueType) of that container: the test no longer exercises what it fakes. Remove the \
                override, or reach the code under test through the container.
                """
        }
    }
}

extension OverrideSet {
    /// What to tell a test about the overrides among `entries` that answered nothing: one message per
    /// resolve. Overrides of a resolve that a later one of them answered are shadowed, said once however
    /// many there are; a malformed override was reported already.
    package static func unusedMessages(of entries: [Entry]) -> [String] {
        let answered = Set(entries.compactMap { $0.hasAnswered ? $0.identifiedKey : nil })
        var said = Set<Key>()
        var messages: [String] = []
        for entry in entries where !entry.hasAnswered {
            let key = entry.identifiedKey ?? entry.key
            guard said.insert(key).inserted else { continue }
            let count = entries.filter { other in
                !other.hasAnswered && other.key.bucket == key.bucket
                    && (other.identity == .resolve(key.name) || other.key.name == key.name)
            }.count
            if answered.contains(key) {
                messages.append(
                    """
                    This test overrides \(key.name) of \(Swift.type(of: entry.container)) \(count + 1) times, and \
                    only the last one answers: the \(count == 1 ? "other is" : "\(count) others are") shadowed. \
                    Keep one override per resolve.
                    """)
            } else if let message = OverrideMessages.unused(entry) {
                messages.append(message)
            }
        }
        return messages
    }
}
