extension DependencyContainer {
    /// One resolve of a container replaced for a scope: a value, or the value in effect transformed.
    ///
    /// An override names the resolve it replaces by calling it, so it is checked by the compiler like
    /// any call: no string, no key to declare, no subclass to write.
    ///
    /// ```swift
    /// @Test(.dependencies(CoreGreetingDependency(), .override({ $0.resolveClock() }, with: FixedClock(fixedHour: 23))))
    /// func greetsAtNight() { … }
    /// ```
    ///
    /// Give overrides to the testing trait, to ``withDependencies(_:operation:)-(_,()->R)``
    /// with a new container, or to ``Injector/withOverrides(_:operation:)-(_,()->R)``
    /// for the container already in effect. Inside that scope:
    ///
    /// - **It cascades.** Every resolve the container builds with the overridden one gets the override:
    ///   the greeter that reads the clock reads the fixed clock.
    /// - **It answers first.** A value override never runs the production code it replaces, so the test
    ///   guard does not report an overridden live leaf; a live leaf left without an override still is.
    /// - **It is scoped.** Overrides live in the task, like scoped containers: child tasks see them, tests
    ///   running in parallel never see each other's, and the global container is never touched. Each
    ///   answers the container it was made for and no other.
    ///
    /// The resolve must wrap its body in `fresh {}`, `live {}` or `shared {}` (that is where the engine
    /// sees it) and must not be `async`; the closure must call that resolve and nothing else. Anything
    /// else stops with a message naming the fix when the scope begins, not when the resolve is used.
    ///
    /// `Container` is the type of the container the override is given with: the class passed to the
    /// trait, `withDependencies` or XCTest's `useDependencies` — so an app container's own resolves,
    /// declared on top of a library's, are in reach without a cast — or the injector's container type
    /// for ``Injector/withOverrides(_:operation:)-(_,()->R)``.
    ///
    /// Subclassing stays the way to compose an app: an override is for a test, a preview or a scope of
    /// code that needs one value changed.
    public struct Override<Container>: Sendable {
        /// Makes the override for the container: a value override's value, found at once, or what makes a
        /// relative override's entry, found on first use; `nil` once a malformed override is reported.
        /// Takes the container as an object (a `Container`): only an override met for the first time needs
        /// it typed, so a scope made per request makes no generic metadata for the container's type.
        /// Nothing else is stored, and nothing that depends on `Container`: a list of overrides is read as a list
        /// of ``AnyOverride`` in place (``withErased(_:_:)``).
        let prepare: ValueScope.Prepare

        /// Replaces a resolve with a value.
        ///
        /// `value` is evaluated once each time the scope begins (once per test case), and that one value
        /// answers every resolution in the scope: a stateful fake keeps its state across resolves, as
        /// with `shared {}`. Finding the resolve never runs its production code. A closure that captures
        /// nothing is run to find its resolve once per container class, not once per scope: a middleware's
        /// per-request `.override({ $0.resolveRequestID() }, with: id)` pays for it on its first request.
        ///
        /// ```swift
        /// .override({ $0.resolveClock() }, with: FixedClock(fixedHour: 23))
        /// ```
        /// - Parameters:
        ///   - resolve: Calls the resolve to replace, and nothing else.
        ///   - value: The value every resolution of it returns inside the scope.
        /// - Returns: The override.
        public static func override<T: Sendable>(
            _ resolve: @escaping @Sendable (Container) -> T,
            with value: @autoclosure @escaping @Sendable () -> T
        ) -> Self {
            Self { object in
                let value = Placeholder(value: value())
                let remembered = RecordedSelections.key(resolve, on: object)
                if let remembered, let selection = RecordedSelections.selection(for: remembered) {
                    let key = OverrideSet.Key(
                        container: ObjectIdentifier(object), type: ObjectIdentifier(T.self), name: selection)
                    return .value(.init(key: key, container: object, valueType: T.self, value: value))
                }
                guard
                    // `object` was made from a `Container`, so the cast always succeeds.
                    let selected = OverrideRecording.select(
                        T.self, mode: .value(value), selector: { _ = resolve(object as! Container) })
                else { return nil }
                if let remembered, selected.container === object, selected.key.type == ObjectIdentifier(T.self) {
                    RecordedSelections.remember(selected.key.name, for: remembered)
                }
                return .value(.init(key: selected.key, container: selected.container, valueType: T.self, value: value))
            }
        }

        /// Replaces a resolve with the value it has without this override, transformed.
        ///
        /// The value is resolved as if this override did not exist — from an enclosing scope's override
        /// or from the container — on every resolution, from the scope's own instances, and `transform`
        /// makes the answer, once per base instance: a `shared {}` base gets one answer for the scope.
        ///
        /// ```swift
        /// .override({ $0.resolvePath() }) { $0 + ["settings"] }
        /// ```
        ///
        /// Nothing runs when the scope begins: the first resolution of the container with the type
        /// `resolve` returns finds the resolve, by running `resolve` with its one resolution answered by
        /// the value the override transforms, before anything else is served. A relative override of a
        /// type the scope never resolves never runs anything. Inside `transform`, the resolve it
        /// replaces serves the value without this override.
        /// - Parameters:
        ///   - resolve: Calls the resolve to replace, and nothing else.
        ///   - transform: Makes the answer from the enclosing value.
        /// - Returns: The override.
        public static func override<T: Sendable>(
            _ resolve: @escaping @Sendable (Container) -> T,
            _ transform: @escaping @Sendable (T) -> T
        ) -> Self {
            Self { container in
                guard let object = container as? any DependencyContainer.Resolving else {
                    OverrideMessages.report(
                        "A relative override of a \(T.self) is made for \(Container.self), which is not a container.")
                    return nil
                }
                return .relative {
                    OverrideSet.Entry(
                        key: OverrideSet.Key(container: ObjectIdentifier(object), type: ObjectIdentifier(T.self)),
                        container: object, valueType: T.self, answer: .relative { base in (base as? T).map(transform) },
                        // The container is the entry's, and so a `Container`; the cast keeps the closure `Sendable`.
                        selector: { if let typed = object as? Container { _ = resolve(typed) } })
                }
            }
        }
    }
}

extension DependencyContainer.Override {
    /// `other`, given with a container of type `Container`: an override value declared once for the
    /// container protocol (`Override<any GreetingDependency>`) and given with a container class.
    package init<Declared>(_ other: DependencyContainer.Override<Declared>) {
        self =
            other as? Self
            ?? Self { container in
                guard container is Declared else {
                    OverrideMessages.report(
                        "An override made for \(Declared.self) was given with a \(type(of: container)), which is not one."
                    )
                    return nil
                }
                return other.prepare(container)
            }
    }
}

/// Runs `operation` with `container` in effect, answering the resolves `overrides` name: the array
/// form behind ``withDependencies(_:operation:)-(_,()->R)``. Given `reportUnused`, hands it a message
/// for each override nothing resolved while `operation` ran, when it returns: the test helpers' check
/// that a test still exercises what it fakes. Without it, the scope is made as `withOverrides` makes
/// one: values only take the lean form (``ValueScope``).
package func withDependencies<C: DependencyContainer, R>(
    _ container: C,
    overriding overrides: [DependencyContainer.Override<C>],
    reportingUnused reportUnused: ((String) -> Void)? = nil,
    operation: () throws -> R
) rethrows -> R {
    try ScopeFrame.bind(scopeFrame(binding: container)) {
        guard let reportUnused else {
            let scope = OverrideScopeBinding(overrides, on: container, pinned: true).overrides
            return try Interception.updating({ $0.overrides = scope }, operation: operation)
        }
        let (set, entries) = OverrideSet.recording(overrides, for: container)
        let result = try Interception.updating({ $0.overrides = set }, operation: operation)
        OverrideSet.unusedMessages(of: entries).forEach(reportUnused)
        return result
    }
}

/// The asynchronous form of ``withDependencies(_:overriding:reportingUnused:operation:)``.
///
/// Tasks the operation started may still use the overrides after it returns. While an override is
/// unused, the unused check waits for the scope's last holder to let it go — a task that inherited it
/// ends — and reports then, at once when no task holds it; a task that still holds it after
/// `waitingAtMost` nanoseconds (two seconds unless given) has leaked, and the check reports without it,
/// saying so.
@usableFromInline
package func withDependencies<C: DependencyContainer, R>(
    _ container: C,
    overriding overrides: [DependencyContainer.Override<C>],
    reportingUnused reportUnused: ((String) -> Void)? = nil,
    waitingAtMost limit: UInt64 = 2_000_000_000,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> R
) async rethrows -> R {
    try await ScopeFrame.bind(scopeFrame(binding: container), isolation: isolation) {
        guard let reportUnused else {
            let scope = OverrideScopeBinding(overrides, on: container, pinned: true).overrides
            return try await Interception.updating({ $0.overrides = scope }, isolation: isolation, operation: operation)
        }
        let whenFreed = OverrideSet.Release()
        var (set, entries) = OverrideSet.recording(overrides, for: container, whenFreed: whenFreed)
        let result = try await Interception.updating({ $0.overrides = set }, isolation: isolation, operation: operation)
        // The scope's own reference goes first, so the set is freed when the last task holding it ends.
        set = nil
        let leaked = entries.contains(where: { !$0.hasAnswered }) ? await !whenFreed.wait(atMost: limit) : false
        let leakNote =
            leaked
            ? " A task the test started still held its scope \(limit / 1_000_000) ms after the test returned, and "
                + "was not waited for: a resolve it makes later is not counted."
            : ""
        for message in OverrideSet.unusedMessages(of: entries) { reportUnused(message + leakNote) }
        return result
    }
}

extension Injector {
    /// Runs `operation` with the container in effect (scoped or global) answering the resolves
    /// `overrides` name.
    ///
    /// Inside a test, this changes the test's container for a block of code; a relative override
    /// builds on what is in effect around it:
    ///
    /// ```swift
    /// greetingInjector.withOverrides(.override({ $0.resolveGreeter() }) { ShoutingGreeter(base: $0) }) {
    ///     greetingInjector.dependencies.resolveGreeter().greeting(for: "Ada")
    /// }
    /// ```
    /// - Parameters:
    ///   - overrides: Replace resolves of the container, in order, each recorded with the ones before it
    ///     in effect; see ``DependencyContainer/Override``.
    ///   - operation: The code to run.
    /// - Returns: What `operation` returns.
    @inlinable
    public func withOverrides<R>(
        _ overrides: DependencyContainer.Override<Container>...,
        operation: () throws -> R
    ) rethrows -> R {
        try overrideScope(overrides).run(operation)
    }

    /// Runs the asynchronous `operation` with the container in effect (scoped or global) answering
    /// the resolves `overrides` name.
    ///
    /// See ``withOverrides(_:operation:)-(_,()->R)``.
    /// - Parameters:
    ///   - overrides: Replace resolves of the container, in order; see ``DependencyContainer/Override``.
    ///   - isolation: The caller's isolation, inherited by `operation`.
    ///   - operation: The code to run.
    /// - Returns: What `operation` returns.
    @inlinable
    public func withOverrides<R>(
        _ overrides: DependencyContainer.Override<Container>...,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> R
    ) async rethrows -> R {
        // Bound here, in the caller: a function of DependencyKit's between the caller and `operation` would be
        // one more asynchronous frame, and executor switch, per request.
        let scope = overrideScope(overrides)
        guard let frame = scope.frame else {
            return try await Interception.currentLocal.withValue(
                scope.interception, operation: operation, isolation: isolation)
        }
        return try await ScopeFrame.bind(frame, isolation: isolation) {
            try await Interception.currentLocal.withValue(
                scope.interception, operation: operation, isolation: isolation)
        }
    }
}

// Inlined into the caller, `withOverrides` reads the container and erases the overrides where their types are
// known; what follows is not generic over them.

/// An override without its container's type (``DependencyContainer/Override``): what inlined code hands on.
@usableFromInline
typealias AnyOverride = DependencyContainer.Override<AnyObject>

extension Injector {
    /// The override scope `overrides` make for the container in effect; read in a synchronous function of its
    /// own, so that the container read is not kept across the asynchronous form's suspension.
    @inlinable
    func overrideScope(_ overrides: [DependencyContainer.Override<Container>]) -> OverrideScopeBinding {
        let container = currentWithObject
        return OverrideScopeBinding(overrides, on: container.object, pinned: container.isInnermost)
    }
}

/// What ``Injector/withOverrides(_:isolation:operation:)`` binds: the interceptors with the override scope
/// `overrides` make on top of the one in effect, and the frame that keeps their container in effect, if one is needed.
///
/// Unless the current task's innermost frame already holds the container, a frame keeps it in effect for the
/// overrides' task tree, so that a global install during the block cannot take the container their entries answer
/// away from it.
@usableFromInline
struct OverrideScopeBinding {
    let overrides: (any ResolutionInterceptor)?
    @usableFromInline let frame: ScopeFrame?

    /// The scope `overrides` make, read in place, not copied, as overrides without their container's type: what an
    /// `Override` stores does not depend on its container's type, so the two are laid out alike.
    /// - Parameter pinned: Whether the current task's innermost frame already holds `container`.
    @inlinable
    init<C>(_ overrides: [DependencyContainer.Override<C>], on container: AnyObject, pinned: Bool) {
        self = overrides.withUnsafeBufferPointer {
            $0.withMemoryRebound(to: AnyOverride.self) { Self($0, on: container, pinned: pinned) }
        }
    }

    @usableFromInline
    init(_ made: UnsafeBufferPointer<AnyOverride>, on container: AnyObject, pinned: Bool) {
        overrides = ValueScope.scope(made, for: container)
        frame = pinned ? nil : (container as? DependencyContainer).map(scopeFrame(binding:))
    }

    /// Runs `operation` in the scope: ``Injector/withOverrides(_:operation:)-(_,()->R)``.
    @usableFromInline
    func run<R>(_ operation: () throws -> R) rethrows -> R {
        guard let frame else { return try Interception.updating({ $0.overrides = overrides }, operation: operation) }
        return try ScopeFrame.bind(frame) {
            try Interception.updating({ $0.overrides = overrides }, operation: operation)
        }
    }

    /// The interceptors in effect, with the scope's overrides: what the asynchronous form binds.
    @usableFromInline
    var interception: Interception {
        var interception = Interception.current
        interception.overrides = overrides
        return interception
    }
}
