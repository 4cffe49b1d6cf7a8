// `public import`: the hooks and the one-load check are `@inlinable`, so they are inlined into the
// resolves of other modules; nothing in DependencyKit's API names a type from this module.
public import _DependencyKitShims

/// Every resolution the engine performs passes through here: the one hook for cycle detection,
/// tracing and DependencyKitTesting's guard.
///
/// A resolve built with `fresh {}`, `live {}` or `shared {}` counts itself in a per-thread depth
/// (an increment, one compare and a decrement that name a runaway cycle in every build; see
/// ``ResolutionFrame/depthLimit``). Nested in a graph, that compare is all it does; a graph's
/// outermost resolution also makes one relaxed load of the process-wide diagnostics word and
/// compares it against a constant. With diagnostics off, `body` is then called directly.
/// Otherwise the resolution is pushed on the current task's resolution chain (a
/// task-local, so child tasks see their parent's chain and concurrent tasks never mix). An interceptor
/// bound inside a synchronous resolve diverts the rest of that graph (``Interception/updating(_:operation:)``);
/// cycle checking or a test context switched on while a thread is
/// inside a graph takes effect from that thread's next outermost resolution.
///
/// A cycle found here throws `cycleError(_:)` of the ``Diagnostics/CycleError`` when the resolution
/// can throw one (the tagged registry); without `cycleError` it stops the process with a message
/// naming the whole chain, because `body` has no error to return it as. A resolution whose
/// lifetime carries a payload (a `Factory`'s `create`, a `Configurator`'s `configure`) is traced
/// but never taken for a cycle: a module that creates modules of its own kind is recursion that
/// ends with its payloads.
///
/// ```swift
/// try withResolution(
///     "resolve(\(T.self), tag: \(tag))", of: T.self, lifetime: .registry, container: self,
///     cycleError: DependencyRegistry.Error.cycle
/// ) { () throws(DependencyRegistry.Error) -> T in … }
/// ```
///
/// Always inlined, for what a large container costs to compile: left to judge, the optimiser first
/// makes a copy of the whole hook specialised for each resolve's value type (both branches, the
/// diagnosed call with its closure and thunk), optimises it, and only then inlines it. Inlined at
/// once into the caller's specialised `fresh {}`, where the lifetime is a constant, the payload
/// branch is gone before that work: the resolve's machine code is the same, and the optimiser takes
/// about a sixth less time on a concrete container (`Docs/Measurements.md`, "The release hook: what
/// was tried").
///
/// - Parameters:
///   - name: What is being resolved, for messages and for telling resolutions apart (usually the
///     resolve method's `#function`); only evaluated when diagnostics are on, so it may describe a tag.
///   - type: The requested type.
///   - lifetime: How the value is produced.
///   - container: The container or registry serving it, if any.
///   - implementer: The class whose code builds the value, when known.
///   - cycleError: Turns a detected cycle into the error this resolution throws; `nil` to stop the
///     process instead.
///   - body: Produces the value.
/// - Returns: What `body` returns.
/// - Throws: `cycleError(_:)` of the cycle when cycle checking is on and this resolution is already
///   in progress in the current task; otherwise whatever `body` throws.
@inline(__always)
@inlinable
package func withResolution<T, Failure: Error>(
    _ name: @autoclosure () -> String,
    of type: T.Type,
    lifetime: Diagnostics.Lifetime,
    container: AnyObject? = nil,
    implementer: (any AnyObject.Type)? = nil,
    cycleError: ((Diagnostics.CycleError) -> Failure)? = nil,
    _ body: () throws(Failure) -> T
) throws(Failure) -> T {
    // Resolutions that carry payloads are not counted: recursion through factories ends with its
    // payloads. Everything else (builders, the registry) nests without end when it requires itself.
    guard !lifetime.carriesPayload else {
        if _slowPath(DiagnosticsWord.isActive) {
            return try diagnosedResolution(
                name(), of: type, lifetime: lifetime, container: container, implementer: implementer, depth: 0,
                cycleError: cycleError, body)
        }
        return try body()
    }
    let depth = dk_resolution_depth_enter()
    // Nested in a graph (2 through the limit), or a graph's outermost resolution while diagnostics
    // are off: run the body. Past the limit is a runaway or a diagnosed graph (see
    // `diagnosedResolution`).
    if _fastPath(
        UInt(bitPattern: depth &- 2) < UInt(ResolutionFrame.depthLimit - 1)
            || (depth == 1 && !DiagnosticsWord.isActive))
    {
        defer { dk_resolution_depth_leave() }
        return try body()
    }
    return try diagnosedResolution(
        name(), of: type, lifetime: lifetime, container: container, implementer: implementer, depth: depth,
        counted: true, cycleError: cycleError, body)
}

/// ``withResolution(_:of:lifetime:container:implementer:cycleError:_:)`` for a cached lifetime
/// (`shared {}`, `weakShared {}`, `scoped {}`): `body` learns whether the resolution took the diagnosed
/// path, the only one on which an override set can be in effect.
///
/// On the plain path `body` gets the constant `false`, so the check a cached lifetime makes for
/// override scopes (``DiagnosticsWord/mayHaveOverrideSets``) is folded away there: a shared-instance hit
/// costs what it cost before override scopes owned their cached instances (see `OwnedInstances`).
@inline(__always)
@inlinable
package func withCachedResolution<T, Failure: Error>(
    _ name: @autoclosure () -> String,
    of type: T.Type,
    lifetime: Diagnostics.Lifetime,
    container: AnyObject,
    _ body: (_ diagnosed: Bool) throws(Failure) -> T
) throws(Failure) -> T {
    let depth = dk_resolution_depth_enter()
    if _fastPath(
        UInt(bitPattern: depth &- 2) < UInt(ResolutionFrame.depthLimit - 1)
            || (depth == 1 && !DiagnosticsWord.isActive))
    {
        defer { dk_resolution_depth_leave() }
        return try body(false)
    }
    return try diagnosedResolution(
        name(), of: type, lifetime: lifetime, container: container, implementer: nil, depth: depth, counted: true,
        cycleError: nil as ((Diagnostics.CycleError) -> Failure)?
    ) { () throws(Failure) -> T in try body(true) }
}

/// This thread's resolution depth as stored, bias included: `0` outside any synchronous
/// resolution. For tests that check the count is balanced on every way out.
package func storedResolutionDepthOnThisThread() -> Int { dk_resolution_depth_get() }

/// The asynchronous form of ``withResolution(_:of:lifetime:container:implementer:cycleError:_:)``.
@inlinable
package func withResolution<T, Failure: Error>(
    _ name: @autoclosure () -> String,
    of type: T.Type,
    lifetime: Diagnostics.Lifetime,
    container: AnyObject? = nil,
    implementer: (any AnyObject.Type)? = nil,
    isolation: isolated (any Actor)? = #isolation,
    cycleError: ((Diagnostics.CycleError) -> Failure)? = nil,
    _ body: () async throws(Failure) -> T
) async throws(Failure) -> T {
    // An outermost asynchronous resolution is a graph of its own (see `perGraph {}`).
    if _slowPath(!GraphFrame.isBound) {
        return try await withGraphFrame(isolation: isolation) { () async throws(Failure) -> T in
            try await withResolution(
                name(), of: type, lifetime: lifetime, container: container, implementer: implementer,
                isolation: isolation, cycleError: cycleError, body)
        }
    }
    if _slowPath(DiagnosticsWord.isActive) {
        return try await diagnosedResolution(
            name(), of: type, lifetime: lifetime, container: container, implementer: implementer,
            isolation: isolation, cycleError: cycleError, body)
    }
    return try await body()
}

/// What one resolution asks for: the facts every diagnostic keeps about it — a frame of the
/// chain, a trace's record, the test guard's look at it — turned into a ``Diagnostics/Step`` only
/// when a message or a graph needs names.
package struct Resolution: Sendable {
    package let name: String
    package let requestedType: any Any.Type
    package let lifetime: Diagnostics.Lifetime
    package let containerID: ObjectIdentifier?
    package let containerType: (any AnyObject.Type)?
    /// Whether the container is one an injector installed as its global, now or before. Asked of the
    /// container while it resolves, so no other object is ever taken for it; only while a guarded
    /// test is live (the test guard's question), `false` otherwise.
    package let servedByAnInstalledGlobal: Bool
    /// The class whose code builds the value, when known.
    package let implementerType: (any AnyObject.Type)?

    init(
        _ name: String,
        of type: any Any.Type,
        lifetime: Diagnostics.Lifetime,
        container: AnyObject?,
        implementer: (any AnyObject.Type)?
    ) {
        self.name = name
        self.requestedType = type
        self.lifetime = lifetime
        self.containerID = container.map(ObjectIdentifier.init)
        self.containerType = container.map { Swift.type(of: $0) }
        if DiagnosticsWord.hasTestContexts(DiagnosticsWord.load()), let container = container as? DependencyContainer {
            servedByAnInstalledGlobal = container.sharedInstances.wasInstalledAsGlobal
        } else {
            servedByAnInstalledGlobal = false
        }
        self.implementerType = implementer
    }

    /// Whether `other` is the same resolution: same name, requested type and container.
    func isSame(as other: Resolution) -> Bool {
        containerID == other.containerID && ObjectIdentifier(requestedType) == ObjectIdentifier(other.requestedType)
            && name == other.name
    }

    /// The resolution named, for messages and graphs.
    package var step: Diagnostics.Step {
        Diagnostics.Step(
            name: name,
            requestedType: String(describing: requestedType),
            lifetime: lifetime,
            container: containerType.map { String(describing: $0) },
            implementer: implementerType.map { String(describing: $0) }
        )
    }
}

// MARK: - The diagnostics word

/// The process-wide word that gates every diagnostic: read once per resolution, relaxed.
///
/// Bit 0 records that cycle checking differs from the build's default (on in debug builds,
/// off in release builds); then three counted fields: live traces, live override sets
/// (`DependencyContainer.Override`), and, in the high bits, live test contexts (DependencyKitTesting's
/// guard), so that every resolution inside a guarded test takes the diagnosed path while
/// production code never does. On 64-bit platforms each field counts to 1,048,575 (2^20 − 1; tests
/// to far more); on 32-bit platforms, 127 traces, 4,095 override sets and 4,095 test contexts. A
/// count never wraps into its neighbour: the scope that would cross its field's limit stops with a
/// message saying so (see ``count(in:by:)``). The word holds ``idle`` exactly when there is nothing
/// to do, so the hot path is one relaxed load and one compare against a constant.
@usableFromInline
package enum DiagnosticsWord {
    /// One of the counted fields of the word.
    package enum Field: CaseIterable {
        case trace, overrideSet, testContext

        /// The field's lowest bit and its width: traces from bit 1, then override sets, then test contexts
        /// up to the sign bit, which stays clear (the word is compared as a signed integer).
        var bits: (shift: Int, width: Int) {
            let (trace, overrideSet) = DiagnosticsWord.widths
            return switch self {
            case .trace: (1, trace)
            case .overrideSet: (1 + trace, overrideSet)
            case .testContext: (1 + trace + overrideSet, Int.bitWidth - 2 - trace - overrideSet)
            }
        }

        /// The field's lowest bit.
        var shift: Int { bits.shift }

        /// The largest count the field holds.
        var limit: Int { (1 << bits.width) - 1 }

        /// What one more adds to the word.
        var unit: Int { 1 << shift }

        /// The field's count in `word`.
        func count(in word: Int) -> Int { (word >> shift) & limit }

        /// What the field counts, for the message at its limit.
        var noun: String {
            switch self {
            case .trace: "traces (`Diagnostics.trace`) running"
            case .overrideSet:
                "override scopes (`.override(…)` in a trait, `withDependencies` or `withOverrides`) alive"
            case .testContext: "guarded test cases running"
            }
        }
    }

    /// Set when cycle checking is not the build default.
    static let toggledBit = 1

    /// Whether this build of DependencyKit checks cycles unless told otherwise.
    @inlinable
    static var checksCyclesByDefault: Bool {
        #if DEBUG
            true
        #else
            false
        #endif
    }

    /// The word's value when cycle checking is off and nothing is traced.
    @inlinable
    static var idle: Int { checksCyclesByDefault ? 1 : 0 }

    /// Whether any diagnostic may need to see the current resolution: the whole cost of the
    /// diagnostics when they are off.
    @inlinable
    static var isActive: Bool { dk_diagnostics_load_relaxed() != idle }

    static func load() -> Int { dk_diagnostics_load_relaxed() }

    /// Whether cycle checking is on, given a loaded word.
    static func checksCycles(_ word: Int) -> Bool { (word & toggledBit != 0) != checksCyclesByDefault }

    /// Whether any trace is live, given a loaded word.
    static func isTracing(_ word: Int) -> Bool { Field.trace.count(in: word) != 0 }

    /// The widths of the trace and override-set fields (``Field/bits``), as constants the optimiser folds.
    @inlinable
    static var widths: (trace: Int, overrideSet: Int) {
        #if _pointerBitWidth(_64)
            (20, 20)
        #else
            (7, 12)
        #endif
    }

    /// The bits of the override sets' count, as a constant the optimiser folds (``Field/overrideSet``).
    @inlinable
    static var overrideSetBits: Int { ((1 << widths.overrideSet) - 1) << (1 + widths.trace) }

    /// Whether an override set may be alive: what a cached lifetime checks before its cell (one
    /// relaxed load, a mask and a branch), to serve an instance that depends on an override from the
    /// override's scope (see `OwnedInstances`).
    @inlinable
    static var mayHaveOverrideSets: Bool { dk_diagnostics_load_relaxed() & overrideSetBits != 0 }

    /// Whether any override set is live, given a loaded word.
    static func hasOverrides(_ word: Int) -> Bool { Field.overrideSet.count(in: word) != 0 }

    /// Whether any test context is live, given a loaded word.
    static func hasTestContexts(_ word: Int) -> Bool { word >= Field.testContext.unit }

    static func setChecksCycles(_ on: Bool) {
        _ = on == checksCyclesByDefault ? dk_diagnostics_fetch_and(~toggledBit) : dk_diagnostics_fetch_or(toggledBit)
    }

    /// Counts one more live plug-in of `field` in, or stops with a message when the field is full: a count
    /// that wrapped into its neighbour would switch another diagnostic on or off for the whole process.
    /// With ``unregister(_:)``, the one place a plug-in keeps its count in the word.
    package static func register(_ field: Field) {
        let before = dk_diagnostics_fetch_add(field.unit)
        if _slowPath(field.count(in: before) == field.limit) {
            dk_diagnostics_fetch_add(-field.unit)
            fatalError(
                """
                More than \(field.limit) \(field.noun) at once: DependencyKit counts them in a word it \
                reads on every resolution, and one more would not fit. Something makes them without \
                ending them (an override scope or trace kept alive by an escaping task?), or the work needs \
                fewer at once; end each before starting the next.
                """
            )
        }
    }

    /// Counts a live plug-in of `field` out, as it ends: what undoes ``register(_:)``.
    package static func unregister(_ field: Field) { dk_diagnostics_fetch_add(-field.unit) }
}
