// `public import`: the hooks and the one-load check are `@inlinable`, so they are inlined into the
// resolves of other modules; nothing in DependencyKit's API names a type from this module.
public import DependencyKitAtomics

/// Every resolution the engine performs passes through here: the one hook for cycle detection,
/// tracing and DependencyKitTesting's guard.
///
/// With diagnostics off it is one relaxed load of a process-wide word and a compare against a
/// constant (plus, for a resolve built with `fresh {}`, `live {}` or `shared {}`, two thread-local
/// increments that name a runaway cycle in every build; see ``RunawayResolution``); `body` is then
/// called directly. Otherwise the resolution is pushed on the current task's resolution chain (a
/// task-local, so child tasks see their parent's chain and concurrent tasks never mix).
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
    let countsDepth = !lifetime.carriesPayload
    let depth = countsDepth ? dk_resolution_depth_enter() : 0
    defer { if countsDepth { dk_resolution_depth_exit() } }
    if _slowPath(DiagnosticsWord.isActive || depth > RunawayResolution.depthLimit) {
        return try diagnosedResolution(
            name(),
            of: type,
            lifetime: lifetime,
            container: container,
            implementer: implementer,
            depth: depth,
            cycleError: cycleError,
            body
        )
    }
    return try body()
}

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
            name(),
            of: type,
            lifetime: lifetime,
            container: container,
            implementer: implementer,
            isolation: isolation,
            cycleError: cycleError,
            body
        )
    }
    return try await body()
}

@usableFromInline
func diagnosedResolution<T, Failure: Error>(
    _ name: String,
    of type: T.Type,
    lifetime: Diagnostics.Lifetime,
    container: AnyObject?,
    implementer: (any AnyObject.Type)?,
    depth: Int,
    cycleError: ((Diagnostics.CycleError) -> Failure)?,
    _ body: () throws(Failure) -> T
) throws(Failure) -> T {
    if depth > RunawayResolution.depthLimit,
        let cycle = RunawayResolution.record(
            name, of: type, lifetime: lifetime, container: container, implementer: implementer)
    {
        // A resolution that throws its cycles (the registry) throws this one too; others stop.
        guard let cycleError else { fatalError(cycle.trapMessage + RunawayResolution.runawayNote) }
        throw cycleError(cycle)
    }
    guard DiagnosticsWord.isActive,
        let frame = try ResolutionFrame.enter(
            name, of: type, lifetime: lifetime, container: container, implementer: implementer,
            cycleError: cycleError)
    else { return try body() }
    return try frame.run(body)
}

@usableFromInline
func diagnosedResolution<T, Failure: Error>(
    _ name: String,
    of type: T.Type,
    lifetime: Diagnostics.Lifetime,
    container: AnyObject?,
    implementer: (any AnyObject.Type)?,
    isolation: isolated (any Actor)?,
    cycleError: ((Diagnostics.CycleError) -> Failure)?,
    _ body: () async throws(Failure) -> T
) async throws(Failure) -> T {
    let frame = try ResolutionFrame.enter(
        name, of: type, lifetime: lifetime, container: container, implementer: implementer,
        cycleError: cycleError)
    guard let frame else { return try await body() }
    return try await frame.run(isolation: isolation, body)
}

// MARK: - The diagnostics word

/// The process-wide word that gates every diagnostic: read once per resolution, relaxed.
///
/// Bit 0 records that cycle checking differs from the build's default (on in debug builds,
/// off in release builds); bits 1–15 count live traces; the bits from 16 up count live test
/// contexts (DependencyKitTesting's guard), so that every resolution inside a guarded test takes
/// the diagnosed path while production code never does. The word holds
/// ``idle`` exactly when there is nothing to do, so the hot path is one relaxed load and one
/// compare against a constant.
@usableFromInline
enum DiagnosticsWord {
    /// Set when cycle checking is not the build default.
    static let toggledBit = 1
    /// What one live trace adds.
    static let traceUnit = 2
    /// What one live test context adds.
    static let testContextUnit = 1 << 16

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

    /// Whether cycle checking is on, given a loaded word.
    static func checksCycles(_ word: Int) -> Bool {
        (word & toggledBit != 0) != checksCyclesByDefault
    }

    /// Whether any trace is live, given a loaded word.
    static func isTracing(_ word: Int) -> Bool { word & (testContextUnit - traceUnit) != 0 }

    /// Whether any test context is live, given a loaded word.
    static func hasTestContexts(_ word: Int) -> Bool { word >= testContextUnit }

    static func load() -> Int { dk_diagnostics_load_relaxed() }

    static func setChecksCycles(_ on: Bool) {
        if on == checksCyclesByDefault {
            dk_diagnostics_fetch_and(~toggledBit)
        } else {
            dk_diagnostics_fetch_or(toggledBit)
        }
    }

    static func beginTrace() { dk_diagnostics_fetch_add(traceUnit) }

    static func endTrace() { dk_diagnostics_fetch_add(-traceUnit) }

    static func beginTestContext() { dk_diagnostics_fetch_add(testContextUnit) }

    static func endTestContext() { dk_diagnostics_fetch_add(-testContextUnit) }
}

// MARK: - Runaway resolutions

/// Names a cycle in every build, even with cycle checking off, before it overflows the stack.
///
/// Every synchronous resolution counts itself in a per-thread depth (two thread-local
/// increments). No real graph nests ``depthLimit`` resolutions on one thread, so past it the
/// engine records each further resolution on this thread; the first one that repeats a recorded
/// one closes the cycle, and the process stops with the chain between the two repeats, named.
/// A resolve that builds its value without `fresh {}` is not recorded, so the chain can miss it;
/// the message says so.
@usableFromInline
enum RunawayResolution {
    /// Nesting deeper than this on one thread is taken for a runaway resolution.
    @usableFromInline
    static let depthLimit = 512

    /// How many resolutions past the limit are recorded before giving up on finding a repeat.
    static let recordLimit = 512

    /// The resolutions recorded on one thread past the depth limit, innermost last.
    final class Record {
        struct Entry {
            let depth: Int
            let name: String
            let typeID: ObjectIdentifier
            let containerID: ObjectIdentifier?
            let step: Diagnostics.Step
        }

        var entries: [Entry] = []
    }

    /// Records one resolution past the depth limit; returns the cycle it closes when it repeats one.
    @usableFromInline
    static func record(
        _ name: String,
        of type: any Any.Type,
        lifetime: Diagnostics.Lifetime,
        container: AnyObject?,
        implementer: (any AnyObject.Type)?
    ) -> Diagnostics.CycleError? {
        let record: Record
        if let raw = dk_runaway_record_get() {
            record = Unmanaged<Record>.fromOpaque(raw).takeUnretainedValue()
        } else {
            record = Record()
            dk_runaway_record_set(Unmanaged.passRetained(record).toOpaque())
        }
        let depth = dk_resolution_depth_get()
        // Entries at this depth or deeper belong to resolutions that have returned.
        while let last = record.entries.last, last.depth >= depth {
            record.entries.removeLast()
        }
        let typeID = ObjectIdentifier(type)
        let containerID = container.map(ObjectIdentifier.init)
        let step = Diagnostics.Step(
            name: name,
            requestedType: String(describing: type),
            lifetime: lifetime,
            container: container.map { String(describing: Swift.type(of: $0)) },
            implementer: implementer.map { String(describing: $0) }
        )
        if let start = record.entries.lastIndex(where: {
            $0.name == name && $0.typeID == typeID && $0.containerID == containerID
        }) {
            let chain = Array(record.entries[start...].map(\.step)) + [step]
            record.entries.removeAll()
            return Diagnostics.CycleError(chain: chain)
        }
        record.entries.append(
            Record.Entry(depth: depth, name: name, typeID: typeID, containerID: containerID, step: step)
        )
        if record.entries.count > recordLimit {
            let recent = record.entries.suffix(8).map { "  \($0.step)" }.joined(separator: "\n")
            fatalError(
                """
                Resolutions nested more than \(depthLimit + recordLimit) deep on one thread without \
                repeating; the most recent:
                \(recent)
                A resolve probably requires itself through resolves that build without `fresh {}`. \
                Wrap each resolve's body in `fresh {}` (or `shared {}`) so the cycle can be named.
                """
            )
        }
        return nil
    }

    static let runawayNote = """

        Found because resolutions nested more than \(depthLimit) deep on one thread. A resolve in \
        the cycle that builds its value without `fresh {}`, `live {}` or `shared {}` is not listed: \
        wrap every resolve's body so it is.
        """
}
