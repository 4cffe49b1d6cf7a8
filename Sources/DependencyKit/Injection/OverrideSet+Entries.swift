// The overrides a scope holds: what one override answers, and the index a scope looks them up in.

extension OverrideSet {
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
        let order = OverrideSet.nextOrder.add(1)
        /// The resolve answered, or (name empty) the bucket a relative entry waits in.
        let key: Key
        let container: any AnyObject & Sendable
        let valueType: any Any.Type
        let answer: Answer
        /// Calls the resolve a relative override selects, to find it on first use.
        let selector: (@Sendable () -> Void)?
        private let state: Locked<(identity: Identity, answered: Bool, elsewhere: (any AnyObject.Type)?)>

        init(
            key: Key, container: any AnyObject & Sendable, valueType: any Any.Type, answer: Answer,
            selector: (@Sendable () -> Void)? = nil
        ) {
            (self.key, self.container, self.valueType, self.answer) = (key, container, valueType, answer)
            self.selector = selector
            state = Locked((key.name.isEmpty ? .pending : .resolve(key.name), false, nil))
        }

        var isRelative: Bool { if case .relative = answer { true } else { false } }

        /// How messages name the override.
        var description: String {
            isRelative ? "A relative override of a \(valueType)" : "An override with a \(valueType)"
        }

        var identity: Identity { state.withLock { $0.identity } }
        var hasAnswered: Bool { state.withLock { $0.answered } }
        func settle(_ found: Identity) { state.withLock { $0.identity = found } }
        func noteAnswered() { state.withLock { $0.answered = true } }
        /// The class of the last other container the code resolved this entry's resolve on, if any.
        var resolvedElsewhere: (any AnyObject.Type)? { state.withLock { $0.elsewhere } }
        func noteResolved(on other: AnyObject) { state.withLock { $0.elsewhere = type(of: other) } }

        /// The resolve this entry was identified as answering; `nil` while it waits, or once refused.
        var identifiedKey: Key? {
            guard case .resolve(let name) = identity else { return nil }
            return Key(container: key.container, type: key.type, name: name)
        }
    }

    /// The entries of one scope, shared (under a lock) by the scope and its views: identified ones by
    /// resolve and relative ones waiting for their first use by bucket, each list in ascending order.
    struct Entries {
        var named: [Key: [Entry]] = [:]
        var pending: [Key: [Entry]] = [:]

        /// Moves `entry`, now identified as `key`'s, from the waiting entries to the named ones.
        mutating func file(_ entry: Entry, under key: Key) {
            pending[key.bucket]?.removeAll { $0 === entry }
            var list = named[key] ?? []
            guard !list.contains(where: { $0 === entry }) else { return }
            list.insert(entry, at: list.firstIndex { $0.order > entry.order } ?? list.endIndex)
            named[key] = list
        }

        /// Takes a malformed entry out for good.
        mutating func drop(_ entry: Entry) {
            for key in named.keys { named[key]?.removeAll { $0 === entry } }
            pending[entry.key.bucket]?.removeAll { $0 === entry }
        }
    }

    /// The order of the next entry made, in any scope.
    private static let nextOrder = AtomicWord(0)
}
