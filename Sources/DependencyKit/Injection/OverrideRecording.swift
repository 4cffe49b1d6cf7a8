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
        _ type: any Any.Type, mode: Mode, selector: () -> Void
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
        OverrideMessages.report(OverrideMessages.selection(calls, of: type, mode: mode))
        return nil
    }

    /// Records a resolution the closure made itself and answers it as the mode says; one it does not
    /// answer runs as written, in the scope around the closure.
    func answer<R>(_ name: String, of _: R.Type, container: AnyObject, base: inout InterceptorBase?) -> Any? {
        let isFirst = calls.withLock { $0.isEmpty }
        func record(_ answer: R?, isExact: Bool = true) {
            let call = Call(
                name: name, requestedType: R.self, container: container as? any DependencyContainer.Resolving,
                containerType: Swift.type(of: container), answer: answer.map { Placeholder(value: $0) },
                isExact: isExact)
            calls.withLock { $0.append(call) }
        }
        switch mode {
        case .value(let placeholder):
            // Every call the value fits is answered, so a malformed closure runs no production code.
            if let value = placeholder.value as? R {
                record(value)
                return value
            }
        case .base(let entry, let set, let separately):
            if isFirst, ObjectIdentifier(R.self) == ObjectIdentifier(type), container === entry.container,
                !name.contains(":")
            {
                let key = OverrideSet.Key(
                    container: ObjectIdentifier(container), type: ObjectIdentifier(R.self), name: name)
                entry.settle(.resolve(name))
                set.entries.withLock { $0.file(entry, under: key) }
                let probe = set.view(below: entry.order, for: key, probing: true, separately: separately)
                base = InterceptorBase(overrides: probe) { served in
                    // A separate probe's base is served only when it holds none of the probe's instances.
                    record(
                        served as? R,
                        isExact: probe.probes.last?.withLock({ $0 }) != true && (!separately || probe.ownsNothing))
                    return served
                }
                return nil
            }
        }
        record(nil)
        base = InterceptorBase(overrides: outer) { $0 }
        return nil
    }
}

/// A value carried through a recording: a value override's value, or a relative override's base.
///
/// `@unchecked Sendable` is sound here: a base is only read in the task that made it, while that task
/// waits for the closure it runs synchronously; a value override's value is `Sendable` itself.
struct Placeholder: @unchecked Sendable {
    let value: Any
}
